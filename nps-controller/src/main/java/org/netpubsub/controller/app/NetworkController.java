package org.netpubsub.controller.app;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.netpubsub.controller.flows.FlowRefusedException;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.flows.FlowStore;
import org.netpubsub.controller.nbi.NorthboundBus;
import org.netpubsub.controller.nbi.NorthboundBusBuilder;
import org.netpubsub.controller.southbound.BatchResult;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.southbound.DesiredStateStore;
import org.netpubsub.controller.southbound.DisconnectReason;
import org.netpubsub.controller.southbound.OpenFlowServer;
import org.netpubsub.controller.southbound.PortInfo;
import org.netpubsub.controller.southbound.ReconcileResult;
import org.netpubsub.controller.southbound.ReconcileScope;
import org.netpubsub.controller.southbound.SouthboundListener;
import org.netpubsub.controller.southbound.SwitchDisconnectedException;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.discovery.HostRefusals;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.nbi.FlowModRoutes;
import org.netpubsub.network.nbi.ReplyRule;
import org.netpubsub.network.nbi.RouteChange;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;
import org.netpubsub.network.topology.TopologyChange;

/**
 * The network controller: owns an {@link OpenFlowServer}, holds the topology that {@link
 * TopologyLearning} learns (LLDP link discovery, hosts from IPv6 neighbour discovery, proxy answers
 * to neighbour solicitations for known hosts), and keeps every switch's flows at {@link
 * UnicastRouting#desiredFlows} of the current topology plus the flows of the apps (pub/sub,
 * multicast, northbound), which write them through the {@link FlowService} it implements: every
 * owner's entries are kept in a per-owner store ({@link OwnedStates}), and a switch's desired state
 * is read from it, never from the apps.
 *
 * <p>Packet-ins pass the {@link NorthboundBus}: topology discovery and host tracking are apps on it
 * ({@link CoreApps}), solicitations for known hosts are its REPLY set, and further apps (in-process
 * or remote over ZeroMQ) see exactly the packet-ins their topics select.
 *
 * <p>Threading: every southbound event, every tick and every host registration runs on one
 * single-threaded scheduled executor (the "controller loop"), so the discovery state and the
 * topology need no locks. Southbound callbacks only enqueue work there. The loop is the one thread
 * of the event-loop group the OpenFlow server serves the switches on: a batch {@link #apply} sends
 * is written by the loop itself, and its barrier reply is read and acknowledged there, without a
 * hand-off to an I/O thread and back (the tail of the OVS response time, docs/results/
 * ovs-response-p99.md, stop 39). Work on the loop therefore also delays the switches' I/O: it must
 * not block. The current topology is published through a volatile field for readers on other
 * threads (the REST API). Reconciles are asynchronous, and a switch's take turns, whole or scoped
 * ({@link ReconcileTurns}).
 */
public final class NetworkController implements FlowService, Closeable {
  private static final System.Logger LOG = System.getLogger(NetworkController.class.getName());
  private static final CompletableFuture<?> NONE = CompletableFuture.completedFuture(null);

  /**
   * The system property that switches the flow service's invariant checker off ({@code
   * -Dnps.invariants.off=true}): for measuring what the checker costs, never in production.
   */
  public static final String INVARIANTS_OFF = "nps.invariants.off";

  /** How IPv6 unicast is forwarded. */
  public enum Forwarding {
    /** Shortest-path routes to every known host, installed ahead of traffic. */
    ROUTED,
    /** Nothing ahead: table misses go to the controller, and bus apps forward (EMD Fig. 10). */
    REACTIVE
  }

  private final ControllerConfig config;
  // the loop: the one event loop of loopGroup, which the OpenFlow server shares
  private final io.netty.channel.EventLoopGroup loopGroup;
  private final ScheduledExecutorService loop;
  private final OpenFlowServer server;
  private final NorthboundBus bus;
  private final Map<Long, SwitchHandle> connected = new ConcurrentHashMap<>();
  private final TopologyLearning learning;
  // its key set, copied on each change (the loop's): GET /v1/topology reads it per request
  private volatile Set<Long> connectedIds = Set.of();
  private final ReconcileTurns reconciles =
      new ReconcileTurns(this::reconcilable, this::reconcileNow, this::submit);
  private final List<Listener> listeners = new ArrayList<>();
  private final Set<Owner> owners = new HashSet<>();
  private final BusFlows busFlows = new BusFlows();
  private final OwnedStates states;
  private SortedMap<Long, List<FlowEntry>> baseFlows = new TreeMap<>(SwitchPort.DPID_ORDER);
  private volatile Topology topology = Topology.EMPTY;
  private volatile boolean closed;

  private NetworkController(ControllerConfig config) {
    this.config = config;
    this.loopGroup =
        new io.netty.channel.nio.NioEventLoopGroup(
            1,
            r -> {
              Thread t =
                  new io.netty.util.concurrent.FastThreadLocalThread(r, "nps-controller-loop");
              t.setDaemon(true);
              return t;
            });
    this.loop = loopGroup.next();
    this.learning =
        new TopologyLearning(config, tickMillis(config), () -> topology, connected, this::apply);
    NorthboundBusBuilder nb =
        NorthboundBus.builder()
            .mode(config.northbound())
            .missesReachController(config.forwarding() == Forwarding.REACTIVE)
            .app(CoreApps.topologyDiscovery(in -> submit(() -> learning.onLldp(in))))
            .app(CoreApps.hostTracking(in -> submit(() -> learning.learnHost(in))))
            // EMD's REPLY set: the core answers solicitations for hosts it knows (proxy ND)
            .reply(
                ReplyRule.neighbourSolicitationFor(a -> topology.host(a).isPresent()),
                (in, core) -> submit(() -> learning.answerSolicitation(in, core)));
    config.apps().forEach(nb::app);
    nb.flowSink((dpid, mod) -> submit(() -> applyBusFlow(dpid, mod)));
    if (config.remoteApps() != null) {
      nb.remoteApps(config.remoteApps(), config.remoteKeys());
    }
    this.bus = nb.build();
    this.server =
        OpenFlowServer.builder()
            .bindAddress(config.bindAddress())
            .port(config.openflowPort())
            .listener(new Southbound())
            .desiredState(new DesiredStateStore(config.reconcileScope()))
            // onConnected reconciles every (re)connected switch in turn (ReconcileTurns); the
            // server's own would run beside it, plan from the same read and send a group ADD twice
            .reconcileOnConnect(false)
            .tls(config.openflowTls())
            .eventLoop(loopGroup)
            .build();
    bus.attach(server::switchHandle);
    this.states = new OwnedStates(server.desiredState(), !Boolean.getBoolean(INVARIANTS_OFF));
    states.register(Owner.DISCOVERY);
    states.register(Owner.BASE_FORWARDING);
    states.register(Owner.NORTHBOUND_APPS);
  }

  /** How often the loop probes for links and expires them. */
  private static long tickMillis(ControllerConfig config) {
    return Math.max(100, config.probeIntervalMillis() / 5);
  }

  /** Starts the OpenFlow server and the probe/expire ticks. */
  public static NetworkController start(ControllerConfig config) throws IOException {
    NetworkController c = new NetworkController(config);
    try {
      c.server.start();
    } catch (IOException | RuntimeException e) {
      c.close();
      throw e;
    }
    long tick = tickMillis(config);
    if (config.restartHold() != null) {
      config.restartHold().start(config.clock().getAsLong());
    }
    c.loop.scheduleWithFixedDelay(c::tick, tick, tick, TimeUnit.MILLISECONDS);
    return c;
  }

  /** The bound OpenFlow address. */
  public InetSocketAddress openflowAddress() {
    return server.localAddress();
  }

  public OpenFlowServer server() {
    return server;
  }

  /** The northbound bus every packet-in passes (its metrics and subscriptions). */
  public NorthboundBus northbound() {
    return bus;
  }

  /** Hosts not learned or not registered because their port was full (safe from any thread). */
  public HostRefusals hostRefusals() {
    return learning.hostRefusals();
  }

  /** The current topology (a snapshot; safe from any thread). */
  @Override
  public Topology topology() {
    return topology;
  }

  /** The datapath ids of the connected switches. */
  @Override
  public Set<Long> connectedSwitches() {
    return connectedIds;
  }

  /** The controller's desired flows for a switch (empty if none). */
  public List<FlowEntry> desiredFlows(long dpid) {
    return server.desiredState().get(dpid).map(DesiredState::flows).orElse(List.of());
  }

  /**
   * Registers (or moves) a host at an edge port, as if it had announced itself. Completes
   * exceptionally with IllegalArgumentException if the attachment is not an edge port of a known
   * switch.
   */
  public CompletableFuture<Host> registerHost(Host host) {
    return CompletableFuture.supplyAsync(
        () -> {
          Topology t = topology;
          if (!t.hasSwitch(host.attachment().dpid())) {
            throw new IllegalArgumentException("unknown switch: " + host.attachment());
          }
          if (t.linkAt(host.attachment()).isPresent()) {
            throw new IllegalArgumentException("not an edge port: " + host.attachment());
          }
          update(t.addHost(host));
          return host;
        },
        loop);
  }

  /** Runs a task on the controller loop (tests use it to wait for queued events). */
  public CompletableFuture<Void> onLoop(Runnable r) {
    return CompletableFuture.runAsync(r, loop);
  }

  /** Computes a value on the controller loop, where apps keep their state. */
  @Override
  public <T> CompletableFuture<T> callOnLoop(Supplier<T> task) {
    return CompletableFuture.supplyAsync(task, loop);
  }

  @Override
  public DesiredState desired(long dpid) {
    return server.desiredState().get(dpid).orElse(DesiredState.EMPTY);
  }

  @Override
  public CompletableFuture<Void> register(Owner owner, Listener listener) {
    return onLoop(
        () -> {
          if (!owners.add(owner)) {
            throw new IllegalStateException(owner + " is registered already");
          }
          states.register(owner);
          listeners.add(listener);
          changeTopology(() -> listener.topologyChanged(topology));
        });
  }

  /** Registers a listener that owns no flows (it only follows the topology). */
  public CompletableFuture<Void> listen(Listener listener) {
    return onLoop(
        () -> {
          listeners.add(listener);
          listener.topologyChanged(topology);
        });
  }

  @Override
  public boolean replace(Owner owner, long dpid, List<FlowEntry> flows, List<GroupEntry> groups) {
    return states.replace(owner, dpid, flows, groups);
  }

  @Override
  public FlowStore.Owned owned(Owner owner, long dpid) {
    return states.owned(owner, dpid);
  }

  @Override
  public CompletableFuture<Void> reconcile(long dpid) {
    return callOnLoop(
            () -> {
              if (!connected.containsKey(dpid)) {
                return CompletableFuture.<Void>completedFuture(null);
              }
              if (!server.desiredState().contains(dpid)) {
                return server.reconcile(dpid).<Void>thenApply(r -> null); // fails, saying why
              }
              return reconciles.request(dpid); // in turn with the switch's other reconciles
            })
        .thenCompose(f -> f);
  }

  @Override
  public CompletableFuture<Void> reconcileScoped(
      long dpid, Predicate<FlowEntry> scope, List<FlowEntry> desired) {
    return callOnLoop(
            () -> {
              if (!connected.containsKey(dpid)) {
                return CompletableFuture.<Void>completedFuture(null);
              }
              DesiredState wanted = new DesiredState(desired, List.of());
              ReconcileScope only = ReconcileScope.flowsOnly(scope);
              return reconciles.requestScoped( // at its turn: skipped if the switch is gone
                  dpid,
                  () -> connected.containsKey(dpid) ? server.reconcile(dpid, wanted, only) : NONE);
            })
        .thenCompose(f -> f);
  }

  @Override
  public CompletableFuture<Integer> apply(Owner owner, SortedMap<Long, List<SwitchMod>> mods) {
    try {
      states.apply(owner, mods);
    } catch (FlowRefusedException e) {
      return CompletableFuture.failedFuture(e);
    }
    return send(mods);
  }

  /**
   * Sends each switch's batch with a barrier; a switch that fails it is reconciled. A batch sent
   * while a whole-switch reconcile is in flight completes only once that reconcile's re-run is
   * done: the batch was computed against flows (a topology change's) that only the reconcile
   * installs, so its barrier alone does not mean the switch forwards by it (docs/testing.md, "Load
   * failures traced (stop 41)").
   */
  private CompletableFuture<Integer> send(SortedMap<Long, List<SwitchMod>> mods) {
    List<CompletableFuture<BatchResult>> sent = new ArrayList<>();
    for (Map.Entry<Long, List<SwitchMod>> e : mods.entrySet()) {
      long dpid = e.getKey();
      SwitchHandle sw = connected.get(dpid);
      if (sw == null || e.getValue().isEmpty()) {
        continue;
      }
      // a failed re-run (the switch left) leaves the batch's own outcome to decide
      CompletableFuture<Void> reconciled = reconciles.changed(dpid).exceptionally(x -> null);
      sent.add(
          sw.apply(e.getValue())
              .thenCombine(reconciled, (r, v) -> r)
              .handle(
                  (r, err) -> {
                    if (err == null) {
                      return r;
                    }
                    submit(() -> scheduleReconcile(dpid));
                    if (unwrap(err) instanceof SwitchDisconnectedException) {
                      // as for a switch not connected when the batch was sent: its desired state
                      // holds the batch, and the reconcile on reconnect installs it
                      return null;
                    }
                    throw err instanceof CompletionException c ? c : new CompletionException(err);
                  }));
    }
    return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
        .thenApply(v -> sent.size());
  }

  @Override
  public void close() {
    closed = true;
    server.close();
    bus.close();
    loopGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
  }

  // ---- everything below runs on the loop ----

  private void tick() {
    try {
      learning.tick();
      if (config.restartHold() != null && config.restartHold().holding()) {
        holdCheck(); // its deadline
      }
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "tick failed", e);
    }
  }

  private void onConnected(SwitchHandle sw) {
    connected.put(sw.dpid(), sw);
    connectedIds = Set.copyOf(connected.keySet());
    update(topology.addSwitch(sw.dpid(), TopologyLearning.upPorts(sw)));
    listeners.forEach(app -> app.switchConnected(sw.dpid()));
    // The switch's one reconcile on (re)connect (the server's own is off): in turn with those a
    // topology change or an app asks for meanwhile.
    scheduleReconcile(sw.dpid());
    learning.sendProbes();
  }

  private void onDisconnected(long dpid) {
    connected.remove(dpid);
    connectedIds = Set.copyOf(connected.keySet());
    learning.switchRemoved(dpid);
  }

  private void onPortStatus(long dpid, PortInfo port, SouthboundListener.PortReason reason) {
    if (!SwitchPort.isPhysical(port.number())) {
      return;
    }
    if (reason == SouthboundListener.PortReason.DELETE || !port.up()) {
      learning.portDown(dpid, port.number());
    } else {
      learning.portUp(dpid, port.number());
      update(topology.addSwitch(dpid, List.of(port.number())));
      learning.sendProbes();
    }
  }

  /**
   * The unicast routes the switches hold besides what apps add through the bus: the base
   * forwarding's and the bus apps' kept flows, which the invariant checker tests apps against.
   */
  private List<RouteChange> ownRoutes(Topology t) {
    List<RouteChange> out = new ArrayList<>();
    for (long dpid : t.switches()) {
      List<FlowEntry> flows = new ArrayList<>(baseFlows.getOrDefault(dpid, List.of()));
      flows.addAll(busFlows.flows(dpid));
      for (FlowEntry f : flows) {
        FlowModRoutes.of(dpid, FlowMod.add(f)).ifPresent(out::add);
      }
    }
    return out;
  }

  /**
   * A bus app's checked flow-mod: into the desired state when kept there, else to the switch. One
   * outside the northbound apps' space of the switch layout is refused (it would write another
   * owner's entries).
   */
  private void applyBusFlow(long dpid, FlowMod mod) {
    if (!SwitchLayout.space(Owner.NORTHBOUND_APPS).contains(mod)) {
      LOG.log(
          System.Logger.Level.WARNING,
          new FlowRefusedException(Owner.NORTHBOUND_APPS, dpid, mod).getMessage());
      return;
    }
    if (busFlows.record(dpid, mod)) {
      replace(Owner.NORTHBOUND_APPS, dpid, busFlows.flows(dpid), List.of());
      send(new TreeMap<>(Map.of(dpid, List.of(SwitchMod.of(mod)))));
    } else {
      SwitchHandle sw = connected.get(dpid);
      if (sw != null) {
        sw.applyFlows(List.of(mod));
      }
    }
  }

  private void apply(List<TopologyChange> changes) {
    if (!changes.isEmpty()) {
      LOG.log(System.Logger.Level.DEBUG, "topology changes: {0}", changes);
      update(topology.applyAll(changes));
    }
  }

  /** Publishes a new topology and brings every switch's desired state in line with it. */
  private void update(Topology learnt) {
    // after a restart, the stored hosts as their switches come back (docs/controller.md, "Restart")
    Topology next =
        config.restartHold() == null ? learnt : config.restartHold().withExpectedHosts(learnt);
    if (next.equals(topology)) {
      return;
    }
    topology = next;
    states.topology(next);
    baseFlows =
        config.forwarding() == Forwarding.ROUTED
            ? UnicastRouting.desiredFlows(next)
            : UnicastRouting.reactiveFlows(next);
    changeTopology(
        () -> {
          for (long dpid : next.switches()) {
            List<FlowEntry> discovery = new ArrayList<>();
            List<FlowEntry> forwarding = new ArrayList<>();
            for (FlowEntry f : baseFlows.getOrDefault(dpid, List.of())) {
              (SwitchLayout.space(Owner.DISCOVERY).contains(f) ? discovery : forwarding).add(f);
            }
            replace(Owner.DISCOVERY, dpid, discovery, List.of());
            replace(Owner.BASE_FORWARDING, dpid, forwarding, List.of());
          }
          listeners.forEach(app -> app.topologyChanged(next));
          bus.routesChanged(next, ownRoutes(next));
        });
    holdCheck();
  }

  /** Runs a topology change's store updates; reconciles the switches whose state changed. */
  private void changeTopology(Runnable updates) {
    states.batch(updates, topology.switches()).forEach(this::scheduleReconcile);
  }

  private static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException c && c.getCause() != null ? c.getCause() : e;
  }

  private void scheduleReconcile(long dpid) {
    reconciles.request(dpid);
  }

  private boolean reconcilable(long dpid) {
    return !closed
        && connected.containsKey(dpid)
        && server.desiredState().contains(dpid)
        && (config.restartHold() == null || !config.restartHold().holding());
  }

  /**
   * Ends a restart's hold when it may end (reconciling every switch); records a settled topology.
   */
  private void holdCheck() {
    RestartHold hold = config.restartHold();
    if (hold != null
        && !closed
        && hold.release(topology, connected.keySet(), config.clock().getAsLong())) {
      connected.keySet().forEach(this::scheduleReconcile);
    }
  }

  /** The apps hold their stored requests again: a restart's hold may end (RestartHold). */
  public CompletableFuture<Void> restored() {
    RestartHold hold = config.restartHold();
    return hold == null ? CompletableFuture.completedFuture(null) : onLoop(this::restoredNow);
  }

  private void restoredNow() {
    config.restartHold().restored();
    holdCheck();
  }

  private CompletableFuture<ReconcileResult> reconcileNow(long dpid) {
    return server
        .reconcile(dpid)
        .whenComplete(
            (r, e) -> {
              Throwable cause = unwrap(e);
              if (cause instanceof SwitchDisconnectedException) {
                // expected: it is reconciled again when it reconnects
                LOG.log(System.Logger.Level.DEBUG, "reconcile of {0} cut short", dpid);
              } else if (cause != null && !closed) {
                LOG.log(System.Logger.Level.WARNING, "reconcile of " + dpid + " failed", e);
              }
            });
  }

  private void submit(Runnable r) {
    if (closed) {
      return;
    }
    try {
      loop.execute(
          () -> {
            try {
              r.run();
            } catch (RuntimeException e) {
              LOG.log(System.Logger.Level.WARNING, "controller event failed", e);
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      // closing
    }
  }

  /** Southbound events: each only enqueues its work on the loop. */
  private final class Southbound implements SouthboundListener {
    @Override
    public void switchConnected(SwitchHandle sw) {
      submit(() -> onConnected(sw));
    }

    @Override
    public void switchDisconnected(long dpid, DisconnectReason reason) {
      submit(() -> onDisconnected(dpid));
    }

    @Override
    public void portStatus(long dpid, PortInfo port, PortReason reason) {
      submit(() -> onPortStatus(dpid, port, reason));
    }

    @Override
    public void packetIn(
        long dpid, long inPort, PacketInReason reason, int tableId, long cookie, byte[] frame) {
      bus.packetIn(dpid, inPort, reason, tableId, cookie, frame);
    }
  }
}
