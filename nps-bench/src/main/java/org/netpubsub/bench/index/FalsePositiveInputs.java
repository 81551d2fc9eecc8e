package org.netpubsub.bench.index;

import java.util.List;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.workload.Workload;
import org.netpubsub.network.pleroma.FalsePositiveRate;

/** A generated workload as the input of {@link FalsePositiveRate}: host filters and events. */
public record FalsePositiveInputs(
    Workload workload, List<FalsePositiveRate.HostFilter> subscriptions, List<Event> events) {

  public static FalsePositiveInputs of(Workload w) {
    List<FalsePositiveRate.HostFilter> subs =
        w.subscriptions().stream()
            .map(
                s ->
                    new FalsePositiveRate.HostFilter(
                        s.host().orElseGet(() -> "port" + s.ports().get(0)),
                        Normalizer.toDnf(FilterParser.parse(w.schema(), s.filter()))))
            .toList();
    return new FalsePositiveInputs(w, subs, w.events().toList());
  }

  /** The first {@code n} subscriptions (a workload's prefix is a smaller workload of the model). */
  public FalsePositiveRate rate(int n) {
    return FalsePositiveRate.of(subscriptions.subList(0, n), events);
  }
}
