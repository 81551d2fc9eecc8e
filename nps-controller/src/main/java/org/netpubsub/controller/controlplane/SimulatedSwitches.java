package org.netpubsub.controller.controlplane;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.sim.SimulatedNetwork;
import org.netpubsub.network.sim.Trace;
import org.netpubsub.network.topology.Topology;

/**
 * Simulated switches for control-plane experiments at scale: each applies flow-mods to an OpenFlow
 * table model (so DP-config can be read back and checked) and acknowledges a batch after a
 * configurable update latency. The latency has two parts: a fixed acknowledgement delay per batch
 * (the round trip to the switch and its barrier), and an optional update rate per switch that
 * serialises updates as a hardware switch's TCAM writes do (PLEROMA cites 40–50 updates/s). With
 * both zero, batches are acknowledged at once and the configurators are the bottleneck.
 *
 * <p>For fault tests, {@link #loseNext} makes a switch silently drop the next batches: not applied,
 * never acknowledged, as if the connection had gone.
 */
public final class SimulatedSwitches implements FlowUpdates, AutoCloseable {
  private final SimulatedNetwork net;
  private final long ackDelayNanos;
  private final double updatesPerSecond;
  private final ScheduledExecutorService timer;
  private final Map<Long, AtomicLong> busyUntil = new HashMap<>();
  private final Map<Long, AtomicInteger> toLose = new ConcurrentHashMap<>();
  private final AtomicLong applied = new AtomicLong();
  private final AtomicLong errors = new AtomicLong();
  private final AtomicLong lost = new AtomicLong();

  public SimulatedSwitches(Topology topology, long ackDelayNanos, double updatesPerSecond) {
    if (ackDelayNanos < 0 || updatesPerSecond < 0) {
      throw new IllegalArgumentException("latency and update rate must be >= 0");
    }
    this.net = SimulatedNetwork.of(topology);
    this.ackDelayNanos = ackDelayNanos;
    this.updatesPerSecond = updatesPerSecond;
    for (long dpid : topology.switches()) {
      busyUntil.put(dpid, new AtomicLong());
    }
    this.timer =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "simulated-switch-acks");
              t.setDaemon(true);
              return t;
            });
  }

  /** Zero-latency switches. */
  public static SimulatedSwitches instant(Topology topology) {
    return new SimulatedSwitches(topology, 0, 0);
  }

  @Override
  public CompletableFuture<Void> send(long dpid, List<FlowMod> mods) {
    AtomicInteger lose = toLose.get(dpid);
    if (lose != null && lose.getAndDecrement() > 0) {
      lost.incrementAndGet();
      return new CompletableFuture<>();
    }
    var sw = net.switchAt(dpid);
    synchronized (sw) {
      for (FlowMod fm : mods) {
        if (sw.apply(fm).isPresent()) {
          errors.incrementAndGet();
        }
      }
    }
    applied.addAndGet(mods.size());
    return acknowledged(dpid, mods.size());
  }

  @Override
  public CompletableFuture<Void> resync(
      long dpid, Predicate<FlowEntry> owned, List<FlowEntry> desired) {
    List<FlowMod> mods = new ArrayList<>();
    var sw = net.switchAt(dpid);
    synchronized (sw) {
      Set<FlowEntry> want = new HashSet<>(desired);
      Set<FlowEntry> have = new HashSet<>();
      for (FlowEntry f : sw.flows()) {
        if (owned.test(f)) {
          have.add(f);
          if (!want.contains(f)) {
            mods.add(FlowMod.deleteStrict(f));
          }
        }
      }
      for (FlowEntry f : desired) {
        if (!have.contains(f)) {
          mods.add(FlowMod.add(f));
        }
      }
    }
    return send(dpid, mods);
  }

  /** The next {@code batches} batches to the switch are lost (never applied or acknowledged). */
  public void loseNext(long dpid, int batches) {
    toLose.computeIfAbsent(dpid, d -> new AtomicInteger()).set(batches);
  }

  /**
   * Where an event published now by {@code from} arrives: the hosts (and UDP ports) that receive a
   * copy. Every switch is held for the whole walk, so the answer reflects one moment even while
   * configurators write (for checks at the instant a request completes).
   */
  public Set<String> receivers(Ipv6Address from, Ipv6Address eventAddress) {
    PacketHeaders h = PacketHeaders.udp6(from, eventAddress, 40000, ContentFlows.EVENT_PORT);
    String name = net.hostName(from).orElseThrow();
    List<Long> dpids = new ArrayList<>(busyUntil.keySet());
    dpids.sort(Long::compareUnsigned); // one lock order for every caller
    return holdingAll(
        dpids,
        0,
        () -> {
          Set<String> out = new java.util.TreeSet<>();
          for (Trace.Delivery d : net.send(name, h).deliveries()) {
            out.add(d.headers().ipv6Dst() + ":" + d.headers().udpDst());
          }
          return out;
        });
  }

  private <T> T holdingAll(List<Long> dpids, int i, java.util.function.Supplier<T> body) {
    if (i == dpids.size()) {
      return body.get();
    }
    synchronized (net.switchAt(dpids.get(i))) {
      return holdingAll(dpids, i + 1, body);
    }
  }

  /** The switch's flows now (DP-config). */
  public List<FlowEntry> flows(long dpid) {
    var sw = net.switchAt(dpid);
    synchronized (sw) {
      return sw.flows();
    }
  }

  public long flowModsApplied() {
    return applied.get();
  }

  /** Flow-mods the switch model rejected; any is a bug in the configurators. */
  public long errors() {
    return errors.get();
  }

  public long batchesLost() {
    return lost.get();
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }

  private CompletableFuture<Void> acknowledged(long dpid, int updates) {
    if (ackDelayNanos == 0 && updatesPerSecond == 0) {
      return CompletableFuture.completedFuture(null);
    }
    long now = System.nanoTime();
    long done = now;
    if (updatesPerSecond > 0) {
      long busy = (long) (updates * 1e9 / updatesPerSecond);
      AtomicLong until = busyUntil.get(dpid);
      done = until.accumulateAndGet(now, (prev, n) -> Math.max(prev, n) + busy);
    }
    done += ackDelayNanos;
    CompletableFuture<Void> ack = new CompletableFuture<>();
    timer.schedule(() -> ack.complete(null), done - now, TimeUnit.NANOSECONDS);
    return ack;
  }
}
