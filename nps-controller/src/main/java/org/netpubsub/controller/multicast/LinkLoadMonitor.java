package org.netpubsub.controller.multicast;

import java.io.Closeable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.southbound.OpenFlowServer;
import org.netpubsub.controller.southbound.PortCounters;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.network.multicast.TrafficEngineering;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * Traffic engineering for the multicast trees: samples every connected switch's port counters
 * (port-stats requests) at a fixed interval, turns two samples into link utilization, and moves the
 * trees off the links {@link TrafficEngineering} finds hot.
 */
public final class LinkLoadMonitor implements Closeable {
  private static final System.Logger LOG = System.getLogger(LinkLoadMonitor.class.getName());

  /**
   * @param linkBps every link's capacity in bits per second (the test bed shapes links to a known
   *     rate; OVS userspace ports report no useful speed)
   */
  public record Settings(
      double linkBps, double threshold, double release, Duration hold, Duration interval) {
    public Settings {
      if (linkBps <= 0 || interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("need a positive link capacity and interval");
      }
    }
  }

  private final FlowService controller;
  private final OpenFlowServer server;
  private final MulticastGroups groups;
  private final Settings settings;
  private final LongSupplier nanoTime;
  private final TrafficEngineering te;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().name("link-load").daemon().factory());
  private TrafficEngineering.Sample last;
  private Set<Link> hot = Set.of();
  private volatile Map<Link, Double> utilization = Map.of();

  private LinkLoadMonitor(
      FlowService controller,
      OpenFlowServer server,
      MulticastGroups groups,
      Settings settings,
      LongSupplier nanoTime) {
    this.controller = controller;
    this.server = server;
    this.groups = groups;
    this.settings = settings;
    this.nanoTime = nanoTime;
    this.te =
        new TrafficEngineering(settings.threshold(), settings.release(), settings.hold().toNanos());
  }

  public static LinkLoadMonitor start(
      FlowService controller, OpenFlowServer server, MulticastGroups groups, Settings settings) {
    LinkLoadMonitor m = new LinkLoadMonitor(controller, server, groups, settings, System::nanoTime);
    long every = settings.interval().toMillis();
    m.timer.scheduleWithFixedDelay(m::tick, every, every, TimeUnit.MILLISECONDS);
    return m;
  }

  /** The utilization measured last, per link. */
  public Map<Link, Double> utilization() {
    return utilization;
  }

  private void tick() {
    try {
      Topology t = controller.topology();
      TrafficEngineering.Sample now = sample(t);
      if (last != null) {
        Map<Link, Double> u = TrafficEngineering.utilization(t, last, now, settings.linkBps());
        utilization = Map.copyOf(u);
        Set<Link> next = te.update(now.nanos(), u);
        if (!next.equals(hot)) {
          LOG.log(System.Logger.Level.INFO, "multicast trees avoid {0}", next);
          hot = next;
          groups.avoid(next).get(settings.interval().toMillis() * 10, TimeUnit.MILLISECONDS);
        }
      }
      last = now;
    } catch (Exception e) { // the timer must survive a switch that did not answer
      LOG.log(System.Logger.Level.WARNING, "link load sample failed", e);
      last = null;
    }
  }

  private TrafficEngineering.Sample sample(Topology t) throws Exception {
    Map<Long, CompletableFuture<List<PortCounters>>> asked = new HashMap<>();
    for (long dpid : controller.connectedSwitches()) {
      Optional<SwitchHandle> sw = server.switchHandle(dpid);
      sw.ifPresent(h -> asked.put(dpid, h.portStats()));
    }
    long at = nanoTime.getAsLong();
    Map<SwitchPort, Long> tx = new HashMap<>();
    List<Long> dpids = new ArrayList<>(asked.keySet());
    for (long dpid : dpids) {
      for (PortCounters c :
          asked.get(dpid).get(settings.interval().toMillis(), TimeUnit.MILLISECONDS)) {
        if (SwitchPort.isPhysical(c.port())) { // OVS reports its LOCAL port too
          tx.put(new SwitchPort(dpid, c.port()), c.txBytes());
        }
      }
    }
    return new TrafficEngineering.Sample(at, tx);
  }

  @Override
  public void close() {
    timer.shutdownNow();
  }
}
