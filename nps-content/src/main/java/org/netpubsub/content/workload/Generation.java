package org.netpubsub.content.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.netpubsub.content.schema.Schema;

/**
 * The part every model shares: splits the seed into independent streams (model parameters,
 * subscriptions, host choice, arrival times, events), then assembles the {@link Workload}.
 *
 * <p>Because the streams are independent, the events do not change when only the number of
 * subscriptions, the hosts or the arrival process change, and the first k subscriptions of a
 * workload are the subscriptions of the same workload with k subscriptions.
 */
final class Generation {
  /** Where subscriptions are delivered: host names or switch ports. */
  enum Destination {
    HOST,
    PORT
  }

  /** One drawn filter and the hotspot it was drawn around (-1 for models without hotspots). */
  record Drawn(String filter, int hotspot) {}

  /** Draws the filter of subscription number {@code index}. */
  @FunctionalInterface
  interface SubscriptionSource {
    Drawn next(Rand rng, int index);
  }

  private final WorkloadSpec spec;
  private final Rand modelRng;
  private final Rand subscriptionRng;
  private final Rand hostRng;
  private final Rand arrivalRng;
  private final long eventSeed;

  Generation(WorkloadSpec spec) {
    this.spec = spec;
    Rand root = new Rand(spec.seed());
    this.modelRng = root.split();
    this.subscriptionRng = root.split();
    this.hostRng = root.split();
    this.arrivalRng = root.split();
    this.eventSeed = root.nextLong();
  }

  /** The stream for model parameters (hotspots, per-stock prices): drawn before anything else. */
  Rand modelRng() {
    return modelRng;
  }

  Workload assemble(
      String model,
      Schema schema,
      Destination destination,
      int hotspots,
      SubscriptionSource subscriptionSource,
      Workload.EventSource eventSource) {
    HostAssigner hosts = new HostAssigner(spec.assignment(), spec.hosts(), hotspots, hostRng);
    ArrivalClock clock = new ArrivalClock(spec.arrival(), arrivalRng);
    List<Subscription> subscriptions = new ArrayList<>(spec.subscriptions());
    for (int i = 0; i < spec.subscriptions(); i++) {
      Drawn drawn = subscriptionSource.next(subscriptionRng, i);
      int host = hosts.next(drawn.hotspot());
      OptionalDouble at = clock.next();
      subscriptions.add(
          destination == Destination.HOST
              ? Subscription.forHost(drawn.filter(), "h" + (host + 1), at)
              : Subscription.forPort(drawn.filter(), host + 1, at));
    }
    return new Workload(
        model, spec.seed(), schema, subscriptions, spec.events(), eventSeed, eventSource);
  }
}
