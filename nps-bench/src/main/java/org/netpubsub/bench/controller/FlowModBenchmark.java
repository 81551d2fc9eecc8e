package org.netpubsub.bench.controller;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.ovs.OvsBridge;
import org.netpubsub.controller.ovs.OvsCommands;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.southbound.OpenFlowServer;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;

/**
 * Acknowledged flow-mods per second to one switch: {@code count} flows with distinct IPv6 prefixes
 * (as PLEROMA's content addresses) are added, then deleted (DELETE_STRICT), in batches of a given
 * size; each batch is sent with its barrier and the next one waits for the acknowledgement, as a
 * configurator that needs consistency would. Targets: the simulated switch over TCP, or a userspace
 * Open vSwitch bridge.
 */
public final class FlowModBenchmark {
  /** What is measured against. */
  public enum Target {
    SIM,
    OVS
  }

  /** One measurement: rates of acknowledged adds and deletes. */
  public record Result(Target target, int batchSize, int count, Duration add, Duration delete) {
    public double addsPerSecond() {
      return count / seconds(add);
    }

    public double deletesPerSecond() {
      return count / seconds(delete);
    }

    private static double seconds(Duration d) {
      return Math.max(1, d.toNanos()) / 1e9;
    }
  }

  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private FlowModBenchmark() {}

  /** The flows: {@code ff0e:X:Y::/48} with X:Y = i, priority 100, output port 1. */
  public static List<FlowEntry> flows(int count) {
    List<FlowEntry> out = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      Ipv6Address a = Ipv6Address.ofGroups(0xff0e, (i >>> 16) & 0xffff, i & 0xffff, 0, 0, 0, 0, 0);
      out.add(
          FlowEntry.builder()
              .priority(100)
              .match(Match.builder().ipv6().ipv6Dst(MaskedIpv6.prefix(a, 48)).build())
              .apply(Action.output(1))
              .build());
    }
    return out;
  }

  /** Runs every batch size against one target; throws if the target cannot be set up. */
  public static List<Result> run(Target target, List<Integer> batchSizes, int count)
      throws IOException {
    if (count < 1 || batchSizes.isEmpty() || batchSizes.stream().anyMatch(b -> b < 1)) {
      throw new IllegalArgumentException("count and batch sizes must be positive");
    }
    if (target == Target.OVS) {
      OvsCommands.ensureRunning();
    }
    try (OpenFlowServer server =
        OpenFlowServer.builder().bindAddress("127.0.0.1").port(0).build().start()) {
      int port = server.localAddress().getPort();
      AutoCloseable sw;
      long dpid;
      if (target == Target.SIM) {
        SimulatedOpenFlowSwitch sim = SimulatedOpenFlowSwitch.builder().dpid(0xbe).build();
        get(sim.connect(server.localAddress()));
        sw = sim;
        dpid = sim.dpid();
      } else {
        OvsBridge bridge = OvsBridge.create("npsbn", 1, "127.0.0.1", port);
        sw = bridge;
        dpid = bridge.datapathId();
      }
      try (sw) {
        SwitchHandle handle = awaitSwitch(server, dpid);
        List<FlowEntry> flows = flows(count);
        // Warm-up: the JIT compiles both ends (in the same JVM for the simulated switch).
        measure(handle, flows, 100);
        measure(handle, flows.subList(0, Math.min(count, 500)), 1);
        List<Result> results = new ArrayList<>();
        for (int b : batchSizes) {
          Duration[] addDelete = measure(handle, flows, b);
          results.add(new Result(target, b, count, addDelete[0], addDelete[1]));
        }
        return results;
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** Adds then deletes the flows in batches; the time of each phase. */
  private static Duration[] measure(SwitchHandle sw, List<FlowEntry> flows, int batch) {
    long t0 = System.nanoTime();
    for (int i = 0; i < flows.size(); i += batch) {
      get(
          sw.applyFlows(
              flows.subList(i, Math.min(flows.size(), i + batch)).stream()
                  .map(FlowMod::add)
                  .toList()));
    }
    long t1 = System.nanoTime();
    for (int i = 0; i < flows.size(); i += batch) {
      get(
          sw.applyFlows(
              flows.subList(i, Math.min(flows.size(), i + batch)).stream()
                  .map(FlowMod::deleteStrict)
                  .toList()));
    }
    long t2 = System.nanoTime();
    return new Duration[] {Duration.ofNanos(t1 - t0), Duration.ofNanos(t2 - t1)};
  }

  private static SwitchHandle awaitSwitch(OpenFlowServer server, long dpid) {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (System.nanoTime() - deadline < 0) {
      var h = server.switchHandle(dpid);
      if (h.isPresent()) {
        return h.get();
      }
      try {
        Thread.sleep(5); // polling for the handshake to finish
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new IllegalStateException("the switch did not connect within " + TIMEOUT);
  }

  private static <T> T get(java.util.concurrent.CompletableFuture<T> f) {
    try {
      return f.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException(e.getCause());
    } catch (TimeoutException e) {
      throw new IllegalStateException("no answer within " + TIMEOUT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
