package org.netpubsub.cli;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.controlplane.ControlPlaneSettings;
import org.netpubsub.controller.local.LocalNetwork;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.RequestOutcome;
import org.netpubsub.network.topology.Host;

/**
 * Warms the controller's request path, beside the controller as it starts (docs/controller.md,
 * "Warm-up"). A freshly started JVM runs the request path interpreted for its first few hundred
 * requests, and that was most of the OVS response time's p99 (docs/results/ovs-response-p99.md,
 * stop 36). So the controller first runs synthetic requests through a throwaway copy of itself: its
 * own {@link NetworkController} on a loopback port, a pub/sub service over the same index and
 * configurator settings, and the ten simulated switches and sixteen cables of {@code nps local}
 * (without its extra host ports and its data plane: {@link LocalNetwork#switchesOnly}, so that less
 * of the budget goes to setting up, stop 37), which take the flow-mods over loopback OpenFlow and
 * answer the barriers. The same code a real request runs is compiled (filter parse, normal form,
 * cells, engine, flow service, invariant check, OpenFlow encoding and barrier replies); no real
 * switch is touched and nothing of the throwaway copy is left when it returns (its sockets and
 * threads are closed). It shares nothing mutable with the real controller (the index is read-only),
 * so it may run while that one serves.
 */
final class ControllerWarmUp {
  /** What the warm-up did: requests completed (refusals included), and how long it took. */
  record Result(int requests, int refused, String firstRefusal, long setupNanos, long nanos) {
    double seconds() {
      return nanos / 1e9;
    }
  }

  private static final int HOSTS = 8;
  private static final int LIVE = 50; // subscriptions kept before the oldest is withdrawn
  private static final int SUBSCRIBER_PORT = 7073;

  private ControllerWarmUp() {}

  /**
   * Up to {@code requests} subscriptions and withdrawals, alternating, within {@code budget} (its
   * set-up included; what is left when the budget ends is not waited for beyond it).
   */
  static Result run(
      SpatialIndex index,
      PubSubLimits limits,
      ControlPlaneSettings configurators,
      int requests,
      Duration budget)
      throws IOException {
    long start = System.nanoTime();
    long deadline = start + budget.toNanos();
    int done = 0;
    int refused = 0;
    long setup = 0;
    String[] firstRefusal = {""};
    // the throwaway copy is not limited by the operator's per-host rate
    PubSubLimits unlimited = limits.withRate(1e9, 1_000_000_000);
    NetworkController controller =
        NetworkController.start(
            // the cables are probed at once (LocalNetwork.switchesOnly); a longer interval than
            // 100 ms probes less while the requests run, and a link is not expired (after three
            // intervals) by a relay delayed on a loaded machine
            ControllerConfig.defaults().withPort("127.0.0.1", 0).withProbeInterval(1000));
    PubSubService service = null;
    LocalNetwork net = null;
    try {
      service =
          configurators == null
              ? PubSubService.attach(controller, index, unlimited)
              : PubSubService.attachPartitioned(controller, index, unlimited, configurators);
      net = LocalNetwork.switchesOnly(controller, remaining(deadline, budget));
      List<String> hosts = new ArrayList<>();
      for (Host h : net.addHosts(HOSTS)) {
        hosts.add(h.address().toString());
      }
      // one publisher of everything, so that every subscription sets up paths and flows
      if (await(service.advertise(hosts.get(0), "true"), deadline, firstRefusal) == null) {
        refused++;
      }
      setup = System.nanoTime() - start;
      WarmUpFilters filters = new WarmUpFilters(index.schema(), 0x6e7073L);
      Deque<String> live = new ArrayDeque<>();
      int i = 0;
      while (done < requests && System.nanoTime() < deadline) {
        RequestOutcome o;
        if (live.size() >= LIVE || (i % 2 == 1 && !live.isEmpty())) {
          o = await(service.withdraw(live.removeFirst()), deadline, firstRefusal);
        } else {
          String host = hosts.get(1 + i % (HOSTS - 1));
          o =
              await(
                  service.subscribe(host, filters.next(i), SUBSCRIBER_PORT),
                  deadline,
                  firstRefusal);
          if (o != null) {
            live.addLast(o.request().id());
          }
        }
        if (o == null) {
          refused++;
        }
        done++;
        i++;
      }
    } finally {
      if (net != null) {
        net.close();
      }
      if (service != null) {
        service.close();
      }
      controller.close();
    }
    return new Result(done, refused, firstRefusal[0], setup, System.nanoTime() - start);
  }

  /**
   * The warm-up's meters on the controller's registry (docs/operations.md): 0 while it runs (it
   * runs beside the controller, ControllerCommand) and after a failure.
   */
  static void bind(MeterRegistry r, AtomicReference<Result> w) {
    Gauge.builder("nps.warmup.requests", w, x -> x.get() == null ? 0 : x.get().requests())
        .description("synthetic requests the start-up warm-up ran (0 or absent: none yet or none)")
        .register(r);
    Gauge.builder("nps.warmup.seconds", w, x -> x.get() == null ? 0 : x.get().seconds())
        .description("how long the start-up warm-up took (0 while it runs)")
        .register(r);
  }

  private static Duration remaining(long deadline, Duration budget) {
    return Duration.ofNanos(Math.max(deadline - System.nanoTime(), budget.toNanos() / 10));
  }

  /** The outcome, or null for a refusal or a request the budget ended (the warm-up goes on). */
  private static RequestOutcome await(
      java.util.concurrent.CompletableFuture<RequestOutcome> f, long deadline, String[] first) {
    try {
      return f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (ExecutionException | TimeoutException e) {
      if (first[0].isEmpty()) {
        first[0] = e instanceof ExecutionException x ? x.getCause().toString() : "timed out";
      }
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
