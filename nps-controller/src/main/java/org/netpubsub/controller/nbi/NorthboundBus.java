package org.netpubsub.controller.nbi;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
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
 * nothing.
 *
 * <p>Apps run in-process ({@link ControllerApp}, fixed when the bus is built) or as separate
 * processes over ZeroMQ ({@link NorthboundBusBuilder#remoteApps}, {@link RemoteAppClient}), which
 * register and change their topics at any time. Both kinds share one classifier, so they see the
 * same topics. The classifier is copy-on-write: each registration change builds a new one from the
 * registrations and publishes it, with the apps it names, through one volatile field; switch
 * executors read that snapshot without locking and never see a half-made change. Registration
 * changes are serialized by {@code registrations}'s monitor (the bus's only lock apart from the
 * independent {@code record} and {@code checkerLock} monitors; none is held while taking another).
 *
 * <p>Without a topology the bus knows no links: it checks no invariants and takes every port as
 * alive; with one ({@link NorthboundBusBuilder#topology}) both checks are on, and {@link
 * #routesChanged} keeps them current with the routes a controller installs itself.
 */
public final class NorthboundBus implements SouthboundListener, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(NorthboundBus.class.getName());

  private final DistributionMode mode;
  private final ReplyRule replyRule;
  private final List<NbiTopic> forAll;
  private final Map<String, ControllerApp> apps;
  private final Map<String, AppRunner> runners = new LinkedHashMap<>();

  /** Every registered app and its topics, in registration order; guarded by itself. */
  private final Map<String, Registration> registrations = new LinkedHashMap<>();

  /** The classifier and targets switch executors read; replaced whole, never changed. */
  private volatile Routing routing;

  private final RemoteAppGateway gateway; // null: no remote apps
  private final boolean missesReachController;
  private final BiConsumer<PacketInView, AppContext> coreReply;
  private final BiConsumer<Long, FlowMod> flowSink; // null: flow-mods go straight to the switch
  private final MultiAppRecord record = new MultiAppRecord(); // guarded by itself
  // null: no topology, no checks; guarded by checkerLock, replaced whole by routesChanged
  private InvariantChecker checker;
  private final Object checkerLock = new Object();
  private volatile Topology topology;
  private volatile LongFunction<Optional<SwitchHandle>> switches = dpid -> Optional.empty();
  private final AtomicLong nextPacketInId = new AtomicLong();
  private final AtomicLong packetIns = new AtomicLong();
  private final AtomicLong deliveries = new AtomicLong();
  private final Map<String, LongAdder> deliveredTo = new ConcurrentHashMap<>();
  private final TopicCounts byTopic = new TopicCounts(TopicCounts.CAPACITY);
  private final AtomicLong unclaimed = new AtomicLong();
  private final AtomicLong replies = new AtomicLong();
  private final AtomicLong packetOuts = new AtomicLong();
  private final AtomicLong duplicates = new AtomicLong();
  private final AtomicLong deadPorts = new AtomicLong();
  private final AtomicLong flowMods = new AtomicLong();
  private final AtomicLong refused = new AtomicLong();

  NorthboundBus(NorthboundBusBuilder b) {
    this.mode = b.mode;
    this.replyRule = b.replyRule;
    this.forAll = List.copyOf(b.forAll);
    this.apps = b.apps;
    this.coreReply = b.coreReply;
    this.flowSink = b.flowSink;
    this.topology = b.topology;
    this.missesReachController = b.missesReachController;
    this.checker =
        b.topology == null ? null : new InvariantChecker(b.topology, missesReachController);
    synchronized (registrations) {
      for (ControllerApp app : apps.values()) {
        AppRunner runner = new AppRunner(app.name(), b.queueCapacity);
        runners.put(app.name(), runner);
        registrations.put(
            app.name(),
            new Registration(new Local(app, runner), new LinkedHashSet<>(app.topics())));
      }
      republish();
    }
    // last: its threads call back into the bus, whose other fields are set by now
    RemoteAppGateway g = null;
    if (b.remote != null) {
      try {
        g = new RemoteAppGateway(this, b.remote, b.remoteKeys, b.queueCapacity, b.remoteLimits);
      } catch (RuntimeException e) {
        runners.values().forEach(AppRunner::stop);
        throw e;
      }
    }
    this.gateway = g;
  }

  public static NorthboundBusBuilder builder() {
    return new NorthboundBusBuilder();
  }

  /** Where packet-outs and flow-mods go: usually {@code server::switchHandle}. */
  public void attach(LongFunction<Optional<SwitchHandle>> switchHandles) {
    this.switches = switchHandles;
  }

  public DistributionMode mode() {
    return mode;
  }

  /**
   * Where remote apps connect, with the ports the bus bound (a {@code *} port replaced by the one
   * picked); empty if the bus takes no remote apps.
   */
  public Optional<RemoteAppEndpoints> remoteEndpoints() {
    return gateway == null ? Optional.empty() : Optional.of(gateway.endpoints());
  }

  /**
   * Packet-ins delivered to each app, as {@code deliveries} counts them (the packet-ins its topics
   * matched, or every one for a FOR_ALL topic): every registered app, 0 if none reached it yet.
   */
  public Map<String, Long> deliveriesByApp() {
    Map<String, Long> out = new TreeMap<>();
    subscriptions().keySet().forEach(app -> out.put(app, 0L));
    deliveredTo.forEach((app, n) -> out.put(app, n.sum()));
    return out;
  }

  /** Packet-ins per matched topic, by its text; registered topics from 0 (TopicCounts). */
  public Map<String, Long> packetInsByTopic() {
    List<NbiTopic> registered = new ArrayList<>(forAll);
    subscriptions().values().forEach(registered::addAll);
    return byTopic.snapshot(registered);
  }

  /** Every registered app, in-process and remote, with its topics in subscription order. */
  public Map<String, List<NbiTopic>> subscriptions() {
    synchronized (registrations) {
      Map<String, List<NbiTopic>> out = new LinkedHashMap<>();
      registrations.forEach((name, r) -> out.put(name, List.copyOf(r.topics())));
      return Collections.unmodifiableMap(out);
    }
  }

  /** Algorithm 1 for one packet-in (called by the switch's southbound executor). */
  @Override
  public void packetIn(
      long dpid, long inPort, PacketInReason reason, int tableId, long cookie, byte[] frame) {
    // ids are uint32, as OpenFlow xids; after 2^32 packet-ins they wrap (the record starts afresh)
    long id = nextPacketInId.incrementAndGet() & 0xffffffffL;
    PacketInView in = new PacketInView(dpid, inPort, id, frame);
    packetIns.incrementAndGet();
    Routing r = routing; // one snapshot for the whole packet-in
    Classification c =
        mode == DistributionMode.CLASSIFIED
            ? r.classifier().classify(in)
            : r.classifier().broadcast(in);
    byTopic.count(c.topics());
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
    byte[] wire = null; // encoded once, for however many remote apps
    for (String name : c.apps()) {
      try {
        switch (r.targets().get(name)) {
          case Local l -> {
            Sender sender = new Sender(name);
            l.runner().submit(() -> l.app().onPacketIn(in, sender));
          }
          case Remote remote -> {
            if (wire == null) {
              wire = RemoteWire.packetIn(in);
            }
            gateway.publish(name, wire);
          }
        }
        deliveries.incrementAndGet();
        deliveredTo.computeIfAbsent(name, k -> new LongAdder()).increment();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // shutting down: the remaining apps miss this one
        return;
      }
    }
  }

  /**
   * A new topology and the routes the controller itself installs on it (its own forwarding): the
   * invariant checker starts over from them, and apps' route changes are checked against them. The
   * apps hear the topology. Turns the checks on if the bus was built without a topology.
   */
  public void routesChanged(Topology next, Collection<RouteChange> controllerRoutes) {
    this.topology = next;
    InvariantChecker fresh = new InvariantChecker(next, missesReachController);
    controllerRoutes.forEach(fresh::install);
    synchronized (checkerLock) {
      checker = fresh;
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
        failures,
        gateway == null ? 0 : gateway.answers(),
        gateway == null ? 0 : gateway.malformedAnswers(),
        gateway == null ? 0 : gateway.refusedRequests(),
        gateway == null ? 0 : gateway.unauthenticated(),
        gateway == null ? 0 : gateway.forbidden());
  }

  /** Events each app has finished handling. */
  public Map<String, Long> handled() {
    Map<String, Long> out = new LinkedHashMap<>();
    runners.forEach((name, r) -> out.put(name, r.handled()));
    return out;
  }

  /** Stops the remote endpoints (closing their sockets) and the apps' threads. Idempotent. */
  @Override
  public void close() {
    if (gateway != null) {
      gateway.close();
    }
    runners.values().forEach(AppRunner::stop);
  }

  /**
   * Admits the clients of a reloaded clients file ({@code --nbi-remote-clients}): a removed client
   * can no longer connect, its messages on connections made before are refused, and the apps it
   * registered are unregistered (docs/security.md).
   *
   * @throws IllegalStateException if the bus takes no remote apps with CURVE
   */
  public void reloadRemoteClients(Map<String, RemoteAppKeys.Client> byPublicKey) {
    if (gateway == null) {
      throw new IllegalStateException("the bus takes no remote apps");
    }
    gateway.clients(byPublicKey);
  }

  /**
   * Remote app registrations: refused at a cap, expired after their app went silent, revoked by a
   * clients reload (in this order).
   */
  public long[] remoteRegistrationCounts() {
    return gateway == null
        ? new long[3]
        : new long[] {
          gateway.registry().refused(), gateway.registry().expired(), gateway.registry().revoked()
        };
  }

  /**
   * Messages for remote apps not sent to a data connection whose queue was full (a slow client: the
   * bus never waits for it).
   */
  public long remoteDataDropped() {
    return gateway == null ? 0 : gateway.dropped();
  }

  // --- remote apps: called by the gateway's control and answer threads ---

  /**
   * Registers a remote app without topics; false if it already was.
   *
   * @throws IllegalArgumentException if an in-process app has that name
   */
  boolean registerRemote(String app) {
    synchronized (registrations) {
      Registration r = registrations.get(app);
      if (r != null) {
        requireRemote(app, r);
        return false;
      }
      registrations.put(app, new Registration(new Remote(app), new LinkedHashSet<>()));
      republish();
      return true;
    }
  }

  /** Subscribes a remote app, registering it if needed; false if it already was subscribed. */
  boolean subscribeRemote(String app, NbiTopic topic) {
    synchronized (registrations) {
      Registration r = registrations.get(app);
      if (r == null) {
        r = new Registration(new Remote(app), new LinkedHashSet<>());
        registrations.put(app, r);
      } else {
        requireRemote(app, r);
      }
      boolean added = r.topics().add(topic);
      if (added) {
        republish();
      }
      return added;
    }
  }

  /**
   * Unsubscribes a remote app from a topic.
   *
   * @throws IllegalArgumentException if the app is not a registered remote app or not subscribed
   */
  void unsubscribeRemote(String app, NbiTopic topic) {
    synchronized (registrations) {
      Registration r = registrations.get(app);
      if (r == null) {
        throw new IllegalArgumentException("no app named " + app);
      }
      requireRemote(app, r);
      if (!r.topics().remove(topic)) {
        throw new IllegalArgumentException(app + " is not subscribed to " + topic);
      }
      republish();
    }
  }

  /**
   * Forgets a remote app and its topics.
   *
   * @throws IllegalArgumentException if the app is not a registered remote app
   */
  void unregisterRemote(String app) {
    synchronized (registrations) {
      Registration r = registrations.get(app);
      if (r == null) {
        throw new IllegalArgumentException("no app named " + app);
      }
      requireRemote(app, r);
      registrations.remove(app);
      republish();
    }
  }

  /** The registered remote apps' names. */
  private List<String> remoteApps() {
    synchronized (registrations) {
      return registrations.entrySet().stream()
          .filter(e -> e.getValue().target() instanceof Remote)
          .map(Map.Entry::getKey)
          .toList();
    }
  }

  /** The way to the switches of a registered remote app, or empty. */
  Optional<AppContext> remoteContext(String app) {
    return routing.targets().get(app) instanceof Remote
        ? Optional.of(new Sender(app))
        : Optional.empty();
  }

  private static void requireRemote(String app, Registration r) {
    if (!(r.target() instanceof Remote)) {
      throw new IllegalArgumentException(app + " is an in-process app");
    }
  }

  /** Builds the classifier of the current registrations and publishes it; holds the lock. */
  private void republish() {
    TopicClassifier c = new TopicClassifier(replyRule);
    forAll.forEach(c::addForAll);
    Map<String, Target> targets = new LinkedHashMap<>();
    registrations.forEach(
        (name, r) -> {
          c.register(name);
          r.topics().forEach(t -> c.subscribe(name, t));
          targets.put(name, r.target());
        });
    routing = new Routing(c, Collections.unmodifiableMap(targets));
  }

  /** Where a registered app's packet-ins go. */
  private sealed interface Target permits Local, Remote {}

  private record Local(ControllerApp app, AppRunner runner) implements Target {}

  private record Remote(String name) implements Target {}

  /** An app's target and its topics (a mutable set, guarded by {@code registrations}). */
  private record Registration(Target target, LinkedHashSet<NbiTopic> topics) {}

  /**
   * What switch executors read: a classifier that is never changed after publication and the
   * targets of the apps it names.
   */
  private record Routing(TopicClassifier classifier, Map<String, Target> targets) {}

  private void announce(Topology t) {
    if (gateway != null) {
      gateway.announce(remoteApps(), t);
    }
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
          // Back out of the packet's own ingress port needs in_port CONTROLLER: a switch never
          // sends a packet out of the port it came in by (OVS drops it).
          long inPort =
              dpid == cause.dpid() && outPort != cause.inPort()
                  ? cause.inPort()
                  : OfPort.CONTROLLER;
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
      Optional<RouteChange> route = FlowModRoutes.of(dpid, mod);
      if (route.isPresent()) {
        InvariantVerdict v = InvariantVerdict.ACCEPT;
        synchronized (checkerLock) {
          if (checker != null) {
            v = checker.check(route.get());
          }
        }
        if (!v.accepted()) {
          refused.incrementAndGet();
          LOG.log(System.Logger.Level.INFO, "refused a flow-mod of {0}: {1}", app, v.reason());
          return v;
        }
      }
      if (flowSink != null) {
        flowMods.incrementAndGet();
        flowSink.accept(dpid, mod);
        return InvariantVerdict.ACCEPT;
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
}
