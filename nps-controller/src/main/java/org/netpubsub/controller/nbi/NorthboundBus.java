package org.netpubsub.controller.nbi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import org.netpubsub.controller.southbound.SouthboundListener;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.network.nbi.Classification;
import org.netpubsub.network.nbi.FlowModRoutes;
import org.netpubsub.network.nbi.InvariantChecker;
import org.netpubsub.network.nbi.InvariantVerdict;
import org.netpubsub.network.nbi.MultiAppRecord;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.nbi.PacketOutRequest;
import org.netpubsub.network.nbi.PacketOutVerdict;
import org.netpubsub.network.nbi.ReplyRule;
import org.netpubsub.network.nbi.RouteChange;
import org.netpubsub.network.nbi.TopicClassifier;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * EMD's northbound bus (Algorithms 1 and 2). As the southbound listener it classifies each
 * packet-in once and queues it to the apps that asked for it ({@link DistributionMode#CLASSIFIED})
 * or to every app ({@link DistributionMode#BROADCAST}); packet-ins in the REPLY set are answered by
 * the core. Apps answer through an {@link AppContext}: packet-outs pass the multi-app duplicate
 * filter, flow-mods that route an IPv6 destination pass the loop and black-hole check.
 *
 * <p>The identifier of a packet-in (the paper's xid) is assigned by the bus, one per packet-in:
 * switches send asynchronous messages with xid 0 (Open vSwitch does), so the wire xid identifies
 * nothing. Apps and their topics are fixed when the bus is built; the classifier is then only read,
 * by many switch executors at once.
 *
 * <p>Without a topology the bus knows no links: it checks no invariants and takes every port as
 * alive; with one ({@link Builder#topology}) both checks are on, and {@link #topologyChanged} keeps
 * them current.
 */
public final class NorthboundBus implements SouthboundListener, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(NorthboundBus.class.getName());

  private final DistributionMode mode;
  private final TopicClassifier classifier;
  private final Map<String, ControllerApp> apps;
  private final Map<String, AppRunner> runners = new LinkedHashMap<>();
  private final BiConsumer<PacketInView, AppContext> coreReply;
  private final MultiAppRecord record = new MultiAppRecord(); // guarded by itself
  private final InvariantChecker checker; // null: no topology, no checks; guarded by itself
  private volatile Topology topology;
  private volatile LongFunction<Optional<SwitchHandle>> switches = dpid -> Optional.empty();
  private final AtomicLong nextPacketInId = new AtomicLong();
  private final AtomicLong packetIns = new AtomicLong();
  private final AtomicLong deliveries = new AtomicLong();
  private final AtomicLong unclaimed = new AtomicLong();
  private final AtomicLong replies = new AtomicLong();
  private final AtomicLong packetOuts = new AtomicLong();
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong deadPorts = new AtomicLong();
  private final AtomicLong flowMods = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();

  private NorthboundBus(Builder b) {
    this.mode = b.mode;
    this.classifier = new TopicClassifier(b.replyRule);
    this.apps = b.apps;
    this.coreReply = b.coreReply;
    this.topology = b.topology;
    this.checker = b.topology == null ? null : new InvariantChecker(b.topology);
    b.forAll.forEach(classifier::addForAll);
    for (ControllerApp app : apps.values()) {
      classifier.register(app.name());
      app.topics().forEach(t -> classifier.subscribe(app.name(), t));
      runners.put(app.name(), new AppRunner(app.name(), b.queueCapacity));
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Where packet-outs and flow-mods go: usually {@code server::switchHandle}. */
  public void attach(LongFunction<Optional<SwitchHandle>> switchHandles) {
    this.switches = switchHandles;
  }

  public DistributionMode mode() {
    return mode;
  }

  /** Algorithm 1 for one packet-in (called by the switch's southbound executor). */
  @Override
  public void packetIn(
      long dpid, long inPort, PacketInReason reason, int tableId, long cookie, byte[] frame) {
    PacketInView in = new PacketInView(dpid, inPort, nextPacketInId.incrementAndGet(), frame);
    packetIns.incrementAndGet();
    Classification c =
        mode == DistributionMode.CLASSIFIED ? classifier.classify(in) : classifier.broadcast(in);
    if (c.kind() == Classification.Kind.REPLY) {
      replies.incrementAndGet();
      coreReply.accept(in, new Sender("core"));
      return;
    }
    if (c.apps().isEmpty()) {
      unclaimed.incrementAndGet();
      return;
    }
    if (c.multiApp()) {
      synchronized (record) {
        record.record(dpid, in.xid(), c);
      }
    }
    for (String name : c.apps()) {
      ControllerApp app = apps.get(name);
      Sender sender = new Sender(name);
      try {
        runners.get(name).submit(() -> app.onPacketIn(in, sender));
        deliveries.incrementAndGet();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // shutting down: the remaining apps miss this one
        return;
      }
    }
  }

  /**
   * A new topology (links or hosts changed): the checks follow it and every app hears it. Keeps the
   * forwarding trees the apps built, checked against the new links.
   */
  public void topologyChanged(Topology next) {
    this.topology = next;
    if (checker != null) {
      synchronized (checker) {
        checker.replaceTopology(next);
      }
    }
    announce(next);
  }

  public BusMetrics metrics() {
    long failures = runners.values().stream().mapToLong(AppRunner::failed).sum();
    return new BusMetrics(
        packetIns.get(),
        deliveries.get(),
        unclaimed.get(),
        replies.get(),
        packetOuts.get(),
        duplicates.get(),
        deadPorts.get(),
        flowMods.get(),
        refused.get(),
        failures);
  }

  /** Events each app has finished handling. */
  public Map<String, Long> handled() {
    Map<String, Long> out = new LinkedHashMap<>();
    runners.forEach((name, r) -> out.put(name, r.handled()));
    return out;
  }

  @Override
  public void close() {
    runners.values().forEach(AppRunner::stop);
  }

  private void announce(Topology t) {
    for (Map.Entry<String, AppRunner> e : runners.entrySet()) {
      ControllerApp app = apps.get(e.getKey());
      try {
        e.getValue().submit(() -> app.onTopology(t));
      } catch (InterruptedException ex) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private Predicate<SwitchPort> alive(Topology t) {
    return t == null ? p -> true : MultiAppRecord.aliveIn(t);
  }

  /** One app's (or the core's) way to the switches. */
  private final class Sender implements AppContext {
    private final String app;

    Sender(String app) {
      this.app = app;
    }

    @Override
    public PacketOutVerdict packetOut(PacketInView cause, long dpid, long outPort, byte[] frame) {
      Topology t = topology;
      PacketOutVerdict v;
      synchronized (record) {
        v =
            record.decide(
                new PacketOutRequest(cause.dpid(), cause.xid(), dpid, outPort),
                t == null ? Topology.EMPTY : t,
                alive(t));
      }
      switch (v) {
        case PASS -> {
          long inPort = dpid == cause.dpid() ? cause.inPort() : OfPort.CONTROLLER;
          Optional<SwitchHandle> sw = switches.apply(dpid);
          if (sw.isPresent()) {
            sw.get().packetOut(inPort, List.of(Action.output(outPort)), frame);
            packetOuts.incrementAndGet();
          }
        }
        case DROP_DUPLICATE -> duplicates.incrementAndGet();
        case DEAD_PORT -> {
          deadPorts.incrementAndGet();
          if (t != null) {
            announce(t); // Algorithm 2, line 14: the app acted on a stale view
          }
        }
      }
      return v;
    }

    @Override
    public InvariantVerdict flowMod(long dpid, FlowMod mod) {
      Optional<RouteChange> route =
          checker == null ? Optional.empty() : FlowModRoutes.of(dpid, mod);
      if (route.isPresent()) {
        InvariantVerdict v;
        synchronized (checker) {
          v = checker.check(route.get());
        }
        if (!v.accepted()) {
          refused.incrementAndGet();
          LOG.log(System.Logger.Level.INFO, "refused a flow-mod of {0}: {1}", app, v.reason());
          return v;
        }
      }
      Optional<SwitchHandle> sw = switches.apply(dpid);
      if (sw.isPresent()) {
        flowMods.incrementAndGet();
        sw.get()
            .applyFlows(List.of(mod))
            .exceptionally(
                e -> {
                  LOG.log(System.Logger.Level.DEBUG, "flow-mod of " + app + " failed", e);
                  return null;
                });
      }
      return InvariantVerdict.ACCEPT;
    }
  }

  /** Settings; apps must have distinct names. */
  public static final class Builder {
    private DistributionMode mode = DistributionMode.CLASSIFIED;
    private final Map<String, ControllerApp> apps = new LinkedHashMap<>();
    private final List<NbiTopic> forAll = new ArrayList<>();
    private ReplyRule replyRule = ReplyRule.NONE;
    private BiConsumer<PacketInView, AppContext> coreReply = (in, core) -> {};
    private Topology topology;
    private int queueCapacity = 1024;

    public Builder mode(DistributionMode m) {
      this.mode = m;
      return this;
    }

    public Builder app(ControllerApp app) {
      if (apps.putIfAbsent(app.name(), app) != null) {
        throw new IllegalArgumentException("two apps are named " + app.name());
      }
      return this;
    }

    /** Packet-ins every app gets whatever its topics (Algorithm 1, FOR_ALL). */
    public Builder forAll(NbiTopic topic) {
      forAll.add(topic);
      return this;
    }

    /** The REPLY set and how the core answers a packet-in in it. */
    public Builder reply(ReplyRule rule, BiConsumer<PacketInView, AppContext> answer) {
      this.replyRule = rule;
      this.coreReply = answer;
      return this;
    }

    /** The known topology: turns on the invariant check and port liveness. */
    public Builder topology(Topology t) {
      this.topology = t;
      return this;
    }

    /** Events queued per app before producers wait (default 1024). */
    public Builder queueCapacity(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("queue capacity must be positive: " + n);
      }
      this.queueCapacity = n;
      return this;
    }

    public NorthboundBus build() {
      return new NorthboundBus(this);
    }
  }
}
