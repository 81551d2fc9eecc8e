package org.netpubsub.controller.pubsub;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.controller.controlplane.ClusterSettings;
import org.netpubsub.controller.controlplane.ControlPlaneSettings;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.southbound.ReconcileScope;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.topology.Topology;

/**
 * The pub/sub app: accepts advertisements and subscriptions (validated and admitted on the caller's
 * thread) and hands each to its {@link RoutingEngine} — PLEROMA's configurator or Camus's compiled
 * pipelines on the controller loop, or the partitioned control plane off it — which applies the
 * resulting switch messages through the {@link FlowService} as its owner; a request completes when
 * every switch it touched acknowledged, or fails with a typed {@link Refused}. When the topology
 * changes, the engine is rebuilt, its flows replace the owner's in the service's store, and the
 * switches are reconciled to them.
 */
public final class PubSubService implements FlowService.Listener {
  private final FlowService controller;
  // the index clients address events with, its version and event port: replaced by a layout switch
  private volatile IndexVersion current;
  private final PubSubLimits limits;
  private final LongSupplier nanoClock;
  private final HostRateLimiter rate;
  private final FilterWork filterWork = FilterWork.sized();
  final Map<String, PubSubRequest> live = new ConcurrentSkipListMap<>(); // StoredRouting restores
  final Map<Ipv6Address, Integer> livePerHost = new ConcurrentHashMap<>();
  final Map<String, Access> grants = new ConcurrentHashMap<>(); // by id; IngressGuard reads
  private final RoutingEngine engine; // loop only
  private volatile String localSwitch;
  final Map<String, Keyed> keyed = new ConcurrentHashMap<>(); // Idempotency-Key'd, by id
  // requests hold the read lock from their check to their queueing on the engine; a layout switch
  // takes the write lock to start, so it sees every request queued before it and none after
  private final ReentrantReadWriteLock switchLock = new ReentrantReadWriteLock();
  private volatile boolean switching;
  private final RegionRecut recuts;

  private PubSubService(
      FlowService controller,
      SpatialIndex index,
      PubSubLimits limits,
      LongSupplier clock,
      RoutingEngine engine) {
    this.controller = controller;
    this.engine = engine;
    this.current = IndexVersion.first(index);
    this.limits = limits;
    this.nanoClock = clock;
    this.rate = new HostRateLimiter(limits.requestsPerSecond(), limits.burst());
    this.recuts = new RegionRecut(this, engine, switchLock, () -> switching);
  }

  /** Starts the app with PLEROMA routing: its flows join every switch's desired state. */
  public static PubSubService attach(
      FlowService controller, SpatialIndex index, PubSubLimits limits) {
    return attach(controller, index, limits, new LoopEngine(controller, new PleromaEngine()));
  }

  /**
   * Starts the app with Camus routing (docs/compiler.md): {@code policy} MR or TR, {@code alpha}
   * the discretization above the edge layer. The index only tells clients the schema.
   */
  public static PubSubService attachCamus(
      FlowService controller,
      SpatialIndex index,
      PubSubLimits limits,
      RoutingPolicy policy,
      long alpha) {
    return attach(
        controller,
        index,
        limits,
        new LoopEngine(controller, new CamusEngine(index.schema(), policy, alpha)));
  }

  /**
   * Starts the app with PLEROMA routing on the partitioned control plane (docs/control-plane.md):
   * requests are configured by n configurators over k partitions off the controller loop.
   */
  public static PubSubService attachPartitioned(
      FlowService controller,
      SpatialIndex index,
      PubSubLimits limits,
      ControlPlaneSettings settings) {
    return attach(controller, index, limits, new PartitionedPleromaEngine(controller, settings));
  }

  /**
   * PLEROMA on a control plane partitioned among processes by ZooKeeper (docs/control-plane.md);
   * the controller needs {@link #clusterReconcileScope} to leave others' content flows alone.
   */
  public static PubSubService attachCluster(
      FlowService controller, SpatialIndex index, PubSubLimits limits, ClusterSettings settings)
      throws Exception {
    return attach(controller, index, limits, new ClusterPleromaEngine(controller, settings));
  }

  /**
   * A cluster process reconciles all but content flows; multicast only while {@code
   * writesMulticast} (app.ClusterRegistry), ingress drops only while {@code writesIngress}.
   */
  public static ReconcileScope clusterReconcileScope(
      BooleanSupplier writesMulticast, BooleanSupplier writesIngress) {
    return ClusterPleromaEngine.reconcileScope(writesMulticast, writesIngress);
  }

  static PubSubService attach(
      FlowService controller, SpatialIndex index, PubSubLimits limits, RoutingEngine e) {
    PubSubService s = new PubSubService(controller, index, limits, System::nanoTime, e);
    controller.register(e.owner(), s).join();
    return s;
  }

  /** Completed requests' stages go to {@code sink} (loop engines only). */
  public void onStages(RequestStages sink) {
    engine.onStages(sink);
  }

  /** This process's member id in a cluster of controller processes (empty outside one). */
  public Optional<String> clusterMember() {
    return engine.member();
  }

  /** {@code nps local}'s switch, {@code [::1]:PORT} ({@code local_switch} in GET /v1/pubsub). */
  public Optional<String> localSwitch() {
    return Optional.ofNullable(localSwitch);
  }

  public void localSwitch(String hostPort) {
    localSwitch = hostPort;
  }

  /** The routing clients must address events for ({@code pleroma}, {@code camus-mr} …). */
  public String routing() {
    return engine.name();
  }

  /** The engine's configurator queue depth, migrations and cluster requests, where it has them. */
  public ConfiguratorLoad configuratorLoad() {
    return ConfiguratorLoad.of(engine);
  }

  /** The index clients address events with (schema with index dimensions, length). */
  public SpatialIndex index() {
    return current.index();
  }

  /** The index with its version and event port (one read: the three belong together). */
  public IndexVersion indexVersion() {
    return current;
  }

  public PubSubLimits limits() {
    return limits;
  }

  public CompletableFuture<RequestOutcome> advertise(String host, String filter) {
    return advertise(host, filter, Optional.empty());
  }

  public CompletableFuture<RequestOutcome> subscribe(String host, String filter, int port) {
    return subscribe(host, filter, port, Optional.empty());
  }

  /**
   * With an idempotency key: the request's id derives from it ({@link #keyedId}), and a repeat of
   * the key with the same request answers the first one's id instead of adding it again (in a
   * cluster, at any process: {@link RoutingEngine#submit} joins the request queued under that id).
   * The key with a different request is refused ({@link Refused.Conflict}).
   */
  public CompletableFuture<RequestOutcome> advertise(
      String host, String filter, Optional<String> key) {
    return advertise(host, filter, key, Access.unowned(host));
  }

  public CompletableFuture<RequestOutcome> subscribe(
      String host, String filter, int port, Optional<String> key) {
    return subscribe(host, filter, port, key, Access.unowned(host));
  }

  /**
   * A request of a principal (docs/security.md): owned by it, rate-limited by its key, and its
   * cover computed from {@code filter ∧ region}, so the switches deliver nothing outside the region
   * (a filter wholly outside is refused, {@link Refused.Forbidden}).
   */
  public CompletableFuture<RequestOutcome> advertise(
      String host, String filter, Optional<String> key, Access access) {
    return submit(
        PubSubRequest.Kind.ADVERTISEMENT, host, filter, ContentFlows.EVENT_PORT, key, access);
  }

  public CompletableFuture<RequestOutcome> subscribe(
      String host, String filter, int port, Optional<String> key, Access access) {
    return submit(PubSubRequest.Kind.SUBSCRIPTION, host, filter, port, key, access);
  }

  /** The principal that owns a live request of this process ("" for the Java API's). */
  public Optional<String> owner(String id) {
    return Optional.ofNullable(grants.get(id)).map(Access::owner);
  }

  /**
   * Checks a region (a principal's, from the principals file) against the schema: an {@link
   * IllegalArgumentException} with the reason if it is no filter the switches can cover.
   */
  public void checkRegion(String region) {
    try {
      FilterCells.compile(index(), region, limits.maxFilterBytes(), limits.maxCells());
    } catch (InvalidInputException e) {
      throw new IllegalArgumentException(e.render().lines().findFirst().orElse(""), e);
    } catch (RequestRefusedException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** Withdraws a live request by id; {@link Refused.Unknown} if there is none. */
  public CompletableFuture<RequestOutcome> withdraw(String id) {
    return withdraw(id, null);
  }

  /**
   * The same for a principal: {@link Refused.Forbidden} unless it owns the request or is an admin.
   * A request accepted at another process of a cluster has its owner there: only an admin withdraws
   * it here.
   */
  public CompletableFuture<RequestOutcome> withdraw(String id, Access access) {
    switchLock.readLock().lock();
    try {
      return withdrawNow(id, access);
    } finally {
      switchLock.readLock().unlock();
    }
  }

  private CompletableFuture<RequestOutcome> withdrawNow(String id, Access access) {
    long start = nanoClock.getAsLong();
    PubSubRequest r = live.get(id);
    try {
      notSwitching();
      if (r == null) {
        Optional<PubSubRequest> elsewhere = engine.acceptedElsewhere(id);
        if (elsewhere.isEmpty()) {
          return CompletableFuture.failedFuture(RequestRefusedException.unknown(id));
        }
        if (access != null && !access.admin()) {
          throw RequestRefusedException.notOwned(id);
        }
        admit(access == null ? elsewhere.get().host().toString() : access.rateKey(), start);
        return engine.submit(elsewhere.get(), true, start);
      }
      if (access != null && !access.mayTouch(owner(id).orElse(""))) {
        throw RequestRefusedException.notOwned(id);
      }
      admit(access == null ? r.host().toString() : access.rateKey(), start);
      keyed.remove(id);
      if (live.remove(id) == null) { // raced another withdrawal
        return CompletableFuture.failedFuture(RequestRefusedException.unknown(id));
      }
      grants.remove(id);
      livePerHost.merge(r.host(), -1, Integer::sum);
      return engine.submit(r, true, start);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** The filter compiled on the filter pool, its CPU charged to {@code access} (FilterWork). */
  private FilterCells.Compiled compile(Access access, String filter, Optional<String> region) {
    return filterWork.run(
        access.rateKey(),
        access.cpuKey(),
        () ->
            FilterCells.compile(
                index(), filter, limits.maxFilterBytes(), limits.maxCells(), region));
  }

  /** The live request of this kind, host, port and filter (same normal form; work on access's). */
  public Optional<PubSubRequest> find(
      PubSubRequest.Kind kind, String host, String filter, int port, Access access) {
    Ipv6Address address = RequestIds.host(host);
    String normal = compile(access, filter, Optional.empty()).normalForm();
    return standing().stream()
        .filter(
            r ->
                r.kind() == kind
                    && r.host().equals(address)
                    && r.port() == port
                    && r.normalForm().equals(normal))
        .findFirst();
  }

  /** The live request of this process with this id, if any. */
  public Optional<PubSubRequest> request(String id) {
    return Optional.ofNullable(live.get(id));
  }

  /** The live requests of a kind, by id. */
  public List<PubSubRequest> requests(PubSubRequest.Kind kind) {
    return standing().stream().filter(r -> r.kind() == kind).toList();
  }

  /**
   * The standing requests: in a cluster every process's, read from ZooKeeper (a request accepted
   * here still being configured is there too); otherwise this process's.
   */
  private java.util.Collection<PubSubRequest> standing() {
    return shared() ? engine.everyProcessRequests() : live.values();
  }

  /** True when other processes share the requests (a cluster). */
  private boolean shared() {
    return engine.shared();
  }

  // ---- FlowService.Listener: on the loop ----

  @Override
  public void topologyChanged(Topology next) {
    engine.topologyChanged(next);
    for (long dpid : next.switches()) {
      controller.replace(engine.owner(), dpid, engine.flows(dpid), engine.groups(dpid));
    }
  }

  @Override
  public void switchConnected(long dpid) {
    engine.switchConnected(dpid);
  }

  /**
   * Stops a queued control plane (a process of a cluster leaves it: its partitions move to the
   * others at once, not after its session expires). Requests in flight may fail.
   */
  public void close() {
    engine.close();
    filterWork.close();
  }

  /** The engine's flows of a switch, read on the loop (CP-config). */
  public CompletableFuture<List<FlowEntry>> contentFlows(long dpid) {
    return controller.callOnLoop(() -> engine.flows(dpid));
  }

  // ---- requests ----

  private CompletableFuture<RequestOutcome> submit(
      PubSubRequest.Kind kind,
      String hostText,
      String filter,
      int port,
      Optional<String> key,
      Access access) {
    switchLock.readLock().lock();
    try {
      return submitNow(kind, hostText, filter, port, key, access);
    } finally {
      switchLock.readLock().unlock();
    }
  }

  private CompletableFuture<RequestOutcome> submitNow(
      PubSubRequest.Kind kind,
      String hostText,
      String filter,
      int port,
      Optional<String> key,
      Access access) {
    long start = nanoClock.getAsLong();
    PubSubRequest r;
    try {
      notSwitching();
      access = recuts.access(access, kind); // the region in force now, after a reload too
      Ipv6Address host = RequestIds.host(hostText);
      if (port < 1 || port > 0xffff) {
        throw new RequestRefusedException(new Refused.Invalid("port out of range: " + port));
      }
      admit(access.rateKey(), start);
      if (livePerHost.getOrDefault(host, 0) >= limits.maxLivePerHost()) {
        throw new RequestRefusedException(
            new Refused.RateLimited(
                "host " + host + " has " + limits.maxLivePerHost() + " live requests already",
                java.util.OptionalLong.empty()));
      }
      FilterCells.Compiled c = compile(access, filter, access.region());
      String id;
      if (key.isPresent()) {
        id = RequestIds.keyed(kind, key.get());
      } else {
        id = engine.newId(kind, RequestIds.random());
      }
      r =
          new PubSubRequest(
              id, kind, host, filter, c.normalForm(), port, c.cells(), access.region());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    String owner = owner(r.id()).orElse(null);
    if (owner != null && !access.mayTouch(owner)) {
      return CompletableFuture.failedFuture(
          RequestRefusedException.notOwned(r.id())); // another's Idempotency-Key
    }
    if (key.isEmpty() || shared()) {
      // in a cluster the repeat is found in ZooKeeper, at whichever process it comes to, and a
      // request withdrawn at another process is not answered from this one's memory
      return start(r, start, access);
    }
    CompletableFuture<RequestOutcome> done = new CompletableFuture<>();
    PubSubRequest standing = live.get(r.id());
    if (standing != null && !keyed.containsKey(r.id())) {
      // stands although its first answer failed (e.g. a switch's late acknowledgement: 504)
      return new Keyed(standing, CompletableFuture.completedFuture(null))
          .repeat(r, key.get(), () -> nanoClock.getAsLong() - start);
    }
    Keyed prior = keyed.putIfAbsent(r.id(), new Keyed(r, done));
    if (prior != null) {
      return prior.repeat(r, key.get(), () -> nanoClock.getAsLong() - start);
    }
    start(r, start, access)
        .whenComplete(
            (o, err) -> {
              if (err != null) {
                keyed.remove(r.id()); // not standing: the key may be tried again
                done.completeExceptionally(err);
              } else {
                done.complete(o);
              }
            });
    return done;
  }

  /** Carries out a new request on the engine. */
  private CompletableFuture<RequestOutcome> start(PubSubRequest r, long start, Access access) {
    try {
      CompletableFuture<RequestOutcome> done = engine.submit(r, false, start);
      if (live.put(r.id(), r) == null) { // a keyed repeat joined the request already here
        livePerHost.merge(r.host(), 1, Integer::sum);
        grants.putIfAbsent(r.id(), access);
      }
      return done.whenComplete(
          (o, err) -> {
            // refused (perhaps after it was queued: in a cluster, its host unknown at a
            // partition's owner): it does not stand
            if (refusal(err)) {
              forget(r);
            } else if (err == null) {
              // withdrawn at another process of a cluster: out of this one's count too
              engine.goneElsewhere(r.id()).thenRun(() -> forget(r));
            }
          });
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** The request stands no more (refused, or withdrawn elsewhere); nothing if already gone. */
  private void forget(PubSubRequest r) {
    if (live.remove(r.id(), r)) {
      grants.remove(r.id());
      livePerHost.merge(r.host(), -1, Integer::sum);
    }
  }

  /** A refusal after which the request does not stand (not a switch's missing answer). */
  private static boolean refusal(Throwable err) {
    Throwable cause = err instanceof CompletionException c ? c.getCause() : err;
    return cause instanceof RequestRefusedException r && !r.refused().requestStands();
  }

  /** Requests are refused while the layout is being switched (for a few seconds). */
  private void notSwitching() {
    if (switching) {
      throw new RequestRefusedException(
          new Refused.Unavailable(
              "the index layout is being switched; retry shortly", OptionalLong.of(1)));
    }
  }

  /**
   * After a principals reload: the standing requests re-cut to the regions {@code now} ({@link
   * RegionRecut}), and new requests cut to them; after a layout switch in progress. In a cluster,
   * the requests accepted by this process (each process re-cuts its own on its own reload).
   */
  public CompletableFuture<RegionRecut.Outcome> recut(RegionRecut.Regions now) {
    return recuts.recut(now);
  }

  // ---- the online layout switch (docs/pubsub.md, "Switching the layout") ----

  /**
   * Switches to {@code next} (same attributes, another index or layout) while the requests stand,
   * make-before-break: the standing requests are covered under {@code next} and their flows
   * installed beside the current ones (matching the other event port, {@link IndexVersion}); once
   * every switch acknowledged, the index version is bumped (clients see the new index and port);
   * after {@code grace} — for publishers to notice — the old flows are removed. An event is sent to
   * one port, so it follows one layout's flows: none is lost while publishers move, none delivered
   * twice. New requests are refused (503, Retry-After) until the switch completes.
   */
  public CompletableFuture<LayoutSwitchOutcome> switchLayout(
      SpatialIndex next, java.time.Duration grace) {
    long start = nanoClock.getAsLong();
    IndexVersion old;
    List<PubSubRequest> moved;
    switchLock.writeLock().lock();
    try {
      old = current;
      if (!next.schema().attributes().equals(old.index().schema().attributes())) {
        throw new RequestRefusedException(
            new Refused.Invalid(
                "schema: a layout switch keeps the attributes; only the index and layout change"));
      }
      if (switching) {
        throw new RequestRefusedException(new Refused.Conflict("a layout switch is in progress"));
      }
      moved = live.values().stream().map(r -> coveredUnder(r, next)).toList();
      switching = true;
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    } finally {
      switchLock.writeLock().unlock();
    }
    IndexVersion successor = old.successor(next);
    long[] installedAt = new long[1];
    CompletableFuture<LayoutSwitchOutcome> done =
        engine
            .installBeside(moved, successor.eventPort())
            .thenCompose(
                installed -> {
                  installedAt[0] = nanoClock.getAsLong();
                  moved.forEach(r -> live.replace(r.id(), r));
                  current = successor; // clients now fetch the new index and port
                  return CompletableFuture.supplyAsync(
                          () -> null,
                          CompletableFuture.delayedExecutor(
                              grace.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS))
                      .thenCompose(x -> engine.retireOld())
                      .thenApply(
                          removed ->
                              new LayoutSwitchOutcome(
                                  successor.version(),
                                  moved.size(),
                                  installed,
                                  removed,
                                  (installedAt[0] - start) / 1e6,
                                  (nanoClock.getAsLong() - start) / 1e6));
                });
    return done.whenComplete(
        (o, err) -> {
          if (err != null && current == old) {
            engine.abandonBeside(); // the old layout stays; the new flows go
          }
          switching = false;
        });
  }

  /** The request with its cells under {@code next} (same id, filter and host). */
  private PubSubRequest coveredUnder(PubSubRequest r, SpatialIndex next) {
    FilterCells.Compiled c = RegionRecut.covered(next, limits, r.filter(), r.region());
    return new PubSubRequest(
        r.id(), r.kind(), r.host(), r.filter(), r.normalForm(), r.port(), c.cells(), r.region());
  }

  private void admit(String sender, long now) {
    rate.acquire(sender, now)
        .ifPresent(
            wait -> {
              throw new RequestRefusedException(
                  new Refused.RateLimited(
                      "too many requests from "
                          + sender
                          + " (limit "
                          + (long) limits.requestsPerSecond()
                          + "/s, burst "
                          + limits.burst()
                          + ")",
                      java.util.OptionalLong.of(wait)));
            });
  }
}
