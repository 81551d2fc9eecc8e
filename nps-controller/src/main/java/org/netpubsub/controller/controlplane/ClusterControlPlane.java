package org.netpubsub.controller.controlplane;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.controlplane.Partitions;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.topology.Topology;

/**
 * One controller process of a partitioned control plane spread over several processes, coordinated
 * through ZooKeeper ({@link ClusterLayout}). Any process accepts requests: it splits them at
 * partition borders and appends the parts to the partitions' queues in ZooKeeper in one
 * transaction, so a request is queued whole or not at all, and ZooKeeper's total order of
 * transactions gives every partition the parts in the same order. The queues are the durable log: a
 * part leaves its queue only in the transaction that records its effect on the partition's standing
 * requests, after the switches acknowledged it.
 *
 * <p>Ownership: the live processes ({@code members}) sorted by id deal the partitions out in turn —
 * every process computes the same assignment from the same membership, no leader needed. A process
 * serves a partition only while holding its lock; when the assignment moves a partition, the old
 * owner finishes its current part and lets go, the new one waits for the lock. A process that dies
 * loses its session, its locks and membership vanish, and the survivors take over its partitions:
 * each rebuilds the CP-config from the standing requests, corrects every switch's flows of that
 * partition ({@link FlowUpdates#resync}, which also undoes a part the dead process had sent but not
 * recorded), and carries on with the queue. Nothing queued is lost.
 *
 * <p>Topology changes ({@link #topologyChanged}) are reconciled per partition: each partition
 * server, before its next part, rebuilds its CP-config on the new tree from the standing requests
 * and resyncs that partition's flows on every switch, exactly as when it takes a partition over.
 * Partition servers run one part at a time, so a batch computed on the old topology is sent before
 * the rebuild, never after, and the rebuild's resync corrects it.
 *
 * <p>Switches take flow-mods from every process (OpenFlow EQUAL role): partitions' flows never
 * overlap, and every write, resync included, is scoped to one partition, so writers never conflict.
 * Balancing between processes is by partition count; SPA-LB runs within a process ({@link
 * ControlPlane}).
 */
public final class ClusterControlPlane implements AutoCloseable {
  private static final System.Logger LOG = System.getLogger(ClusterControlPlane.class.getName());
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:@-]{1,200}");

  /**
   * How long an addition whose host this process has not learned yet waits at the head of its
   * partition's queue. Processes learn hosts independently (neighbour discovery reaches each within
   * milliseconds), so the process that accepted a request may know its host before the owner of a
   * partition does; dropping the part then would answer the request done without its flows.
   */
  static final Duration HOST_GRACE = Duration.ofSeconds(10);

  /** {@link #HOST_GRACE}; tests shorten it. */
  volatile Duration hostGrace = HOST_GRACE;

  // package-private where the partition servers (PartitionServer) read them
  final CuratorFramework zk;
  final ClusterLayout layout;
  private final String member;
  volatile Versioned topology;
  private final Partitions partitions;
  final FlowUpdates updates;
  final RequestTracker requests;
  final Duration ackTimeout;
  private final Map<Dz, PartitionServer> servers = new ConcurrentHashMap<>();
  final AtomicLong processed = new AtomicLong();
  final AtomicLong takeovers = new AtomicLong();
  final AtomicLong rebuilds = new AtomicLong();
  final AtomicLong refused = new AtomicLong();
  final AtomicLong hostWaits = new AtomicLong();
  private volatile boolean running = true;
  private final Thread membershipWatcher;
  private final Semaphore membershipChanged = new Semaphore(0);
  private final Runnable servingChanged;

  /**
   * Joins the cluster under {@code root} as {@code member} (unique among live processes) and starts
   * serving the partitions the membership assigns to it.
   */
  public ClusterControlPlane(
      CuratorFramework zk,
      String root,
      String member,
      Topology topology,
      Partitions partitions,
      FlowUpdates updates,
      Duration ackTimeout)
      throws Exception {
    this(zk, root, member, topology, partitions, updates, ackTimeout, () -> {});
  }

  /**
   * As above; {@code servingChanged} runs (on a partition server's thread) whenever {@link #flows}
   * change other than by a batch sent through {@code updates}: a partition was taken over and
   * rebuilt, or let go.
   */
  public ClusterControlPlane(
      CuratorFramework zk,
      String root,
      String member,
      Topology topology,
      Partitions partitions,
      FlowUpdates updates,
      Duration ackTimeout,
      Runnable servingChanged)
      throws Exception {
    checkId(member, "member");
    this.servingChanged = servingChanged;
    this.zk = zk;
    this.layout = new ClusterLayout(root);
    this.member = member;
    this.topology = new Versioned(0, topology);
    this.partitions = partitions;
    this.updates = updates;
    this.ackTimeout = ackTimeout;
    this.requests = new RequestTracker(zk, layout, partitions);
    for (Dz p : partitions.all()) {
      ensurePersistent(layout.queue(p));
      ensurePersistent(layout.standing(p));
    }
    ensurePersistent(layout.requests());
    ensurePersistent(layout.refusals());
    ensurePersistent(layout.members());
    zk.create().withMode(CreateMode.EPHEMERAL).forPath(layout.member(member));
    zk.getConnectionStateListenable().addListener((client, state) -> sessionChanged(state));
    membershipWatcher = new Thread(this::watchMembership, "cluster-membership-" + member);
    membershipWatcher.setDaemon(true);
    membershipWatcher.start();
  }

  /**
   * Creates a persistent node (and its parents) unless it exists. Not a container: ZooKeeper
   * deletes an empty container that once had children, and a queue or the membership drains to
   * empty all the time — the next transaction creating a child would then fail.
   */
  private void ensurePersistent(String path) throws Exception {
    try {
      zk.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(path);
    } catch (KeeperException.NodeExistsException e) {
      // there already
    }
  }

  /**
   * Queues a request with the partitions it touches; the future completes when every part is
   * processed, acknowledged by the switches and recorded, or fails with {@link RequestRefusal} when
   * a partition's owner refused an addition's part (its host unknown there after {@link
   * #HOST_GRACE}; the other parts are withdrawn). Refused at once with IllegalArgumentException: an
   * unknown host, an id already standing, a withdrawal of an unknown id, an id unfit for a znode
   * name.
   */
  public CompletableFuture<RequestDone> submit(ControlRequest r) throws Exception {
    try {
      return queue(r);
    } catch (KeeperException.NodeExistsException e) {
      throw new IllegalArgumentException("a request with id " + r.id() + " exists");
    }
  }

  /**
   * As {@link #submit}, but an addition whose id is taken by the same request (kind, host, port and
   * cells) joins it instead of being refused: the future completes when every part of that request
   * stands, or fails with its refusal. So a client that retries an addition under one id (an
   * idempotency key), at any process, after the first one died before answering, never makes it
   * stand twice. The same id naming another request is refused (IllegalArgumentException).
   */
  public CompletableFuture<RequestDone> submitOrJoin(ControlRequest r) throws Exception {
    return submitOrJoin(r, Map.of());
  }

  /**
   * As above; an addition's {@code labels} (say, its filter as written) are stored with it and
   * shown by {@link #standingAdditions} at every process.
   */
  public CompletableFuture<RequestDone> submitOrJoin(ControlRequest r, Map<String, String> labels)
      throws Exception {
    if (!r.kind().adds()) {
      return submit(r);
    }
    checkId(r.id(), "request id");
    Optional<RequestRefusal> refused = requests.refusal(r.id());
    if (refused.isPresent()) {
      return CompletableFuture.failedFuture(refused.get());
    }
    try {
      return queue(r, labels);
    } catch (KeeperException.NodeExistsException e) {
      return requests.join(r);
    }
  }

  private CompletableFuture<RequestDone> queue(ControlRequest r) throws Exception {
    return queue(r, Map.of());
  }

  private CompletableFuture<RequestDone> queue(ControlRequest r, Map<String, String> labels)
      throws Exception {
    checkId(r.id(), "request id");
    long start = System.nanoTime();
    List<CuratorOp> ops = new ArrayList<>();
    ControlRequest routed;
    if (r.kind().adds()) {
      if (topology.topology().host(r.host()).isEmpty()) {
        throw new IllegalArgumentException("host " + r.host() + " is not known");
      }
      routed = r;
      ops.add(
          zk.transactionOp()
              .create()
              .forPath(layout.request(r.id()), RequestCodec.encode(r, labels)));
    } else {
      Stat stat = new Stat();
      byte[] data;
      try {
        data = zk.getData().storingStatIn(stat).forPath(layout.request(r.id()));
      } catch (KeeperException.NoNodeException e) {
        throw unknown(r);
      }
      ControlRequest added = RequestCodec.decode(data);
      if (added.kind().isSubscription() != r.kind().isSubscription()) {
        throw unknown(r);
      }
      routed = added.withdrawal();
      ops.add(
          zk.transactionOp()
              .delete()
              .withVersion(stat.getVersion())
              .forPath(layout.request(r.id())));
    }
    SortedMap<Dz, DzSet> parts = partitions.split(routed.cells());
    for (Map.Entry<Dz, DzSet> e : parts.entrySet()) {
      ops.add(requests.queueOp(e.getKey(), routed.withCells(e.getValue())));
    }
    List<CuratorTransactionResult> results;
    try {
      results = zk.transaction().forOperations(ops);
    } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
      throw unknown(r); // withdrawn meanwhile by someone else
    }
    List<String> queued = new ArrayList<>();
    results.subList(1, results.size()).forEach(res -> queued.add(res.getResultPath()));
    return requests.awaitQueued(r, start, queued);
  }

  /**
   * The topology changed (a switch or link went down or up): bumps the topology version, and every
   * partition server of this process rebuilds its partition's CP-config on {@code next} from the
   * standing requests and brings every switch's flows of that partition in line before its next
   * part; other partitions' flows stay untouched. Every process of the cluster must hear the change
   * (in production from its own controller's topology discovery), in the same order.
   */
  public synchronized void topologyChanged(Topology next) {
    topology = new Versioned(topology.version() + 1, next);
    servers.values().forEach(s -> s.queueChanged.release()); // wake idle servers to rebuild now
  }

  /**
   * Every partition server of this process rebuilds and resyncs its partition on every switch
   * before its next part, as on a topology change (e.g. a switch reconnected with empty tables).
   */
  public synchronized void resync() {
    topologyChanged(topology.topology());
  }

  /** The topology this process serves on. */
  public Topology topology() {
    return topology.topology();
  }

  /** This process's member id. */
  public String member() {
    return member;
  }

  /**
   * One switch's content flows of the partitions this process serves now (those taken over and
   * rebuilt): its share of the switch. Safe from any thread.
   */
  public List<FlowEntry> flows(long dpid) {
    List<FlowEntry> out = new ArrayList<>();
    servers.values().forEach(s -> out.addAll(s.flows(dpid)));
    return out;
  }

  /**
   * The standing addition with this id, as submitted to any process of the cluster; empty if there
   * is none (never added, or withdrawn).
   */
  public Optional<ControlRequest> standing(String id) throws Exception {
    checkId(id, "request id");
    try {
      return Optional.of(RequestCodec.decode(zk.getData().forPath(layout.request(id))));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    }
  }

  /**
   * Completes when the addition with this id no longer stands: withdrawn (at any process) or
   * refused. One ZooKeeper watch while it stands.
   */
  public CompletableFuture<Void> gone(String id) throws Exception {
    checkId(id, "request id");
    CompletableFuture<Void> gone = new CompletableFuture<>();
    watchGone(id, gone);
    return gone;
  }

  private void watchGone(String id, CompletableFuture<Void> gone) throws Exception {
    Watcher w =
        event -> {
          try {
            watchGone(id, gone); // deleted, or a connection event: look again
          } catch (Exception e) {
            LOG.log(System.Logger.Level.DEBUG, "watching " + id, e);
          }
        };
    if (running && zk.checkExists().usingWatcher(w).forPath(layout.request(id)) == null) {
      gone.complete(null);
    }
  }

  /** A standing addition and the labels its submitter stored with it. */
  public record Labelled(ControlRequest request, Map<String, String> labels) {}

  /**
   * Every standing addition of the cluster, whichever process accepted it, in id order: one
   * ZooKeeper read per request (additions still queued included). A request withdrawn meanwhile is
   * left out.
   */
  public List<Labelled> standingAdditions() throws Exception {
    List<String> ids = new ArrayList<>(zk.getChildren().forPath(layout.requests()));
    ids.sort(null);
    List<Labelled> out = new ArrayList<>();
    for (String id : ids) {
      try {
        byte[] data = zk.getData().forPath(layout.request(id));
        out.add(new Labelled(RequestCodec.decode(data), RequestCodec.labels(data)));
      } catch (KeeperException.NoNodeException e) {
        // withdrawn between the listing and the read
      }
    }
    return out;
  }

  /** The number of topology changes this process has heard of. */
  public long topologyVersion() {
    return topology.version();
  }

  /** Partitions rebuilt on a new topology while served (takeovers not counted). */
  public long rebuilds() {
    return rebuilds.get();
  }

  /** The partitions this process serves now (it holds their locks). */
  public List<Dz> serving() {
    List<Dz> out = new ArrayList<>();
    servers.forEach(
        (p, s) -> {
          if (s.holding) {
            out.add(p);
          }
        });
    out.sort(null);
    return out;
  }

  /** Parts this process processed, and partitions it took over (rebuilt and resynchronised). */
  public long processed() {
    return processed.get();
  }

  public long takeovers() {
    return takeovers.get();
  }

  /**
   * Times a partition server waited for the host of the part at its queue's head ({@link
   * #HOST_GRACE}).
   */
  public long hostWaits() {
    return hostWaits.get();
  }

  /**
   * Parts refused: their host still unknown here after {@link #HOST_GRACE} (the whole request is
   * refused), or unreadable or refused by the CP-config (a bug or a corrupted queue; dropped).
   */
  public long refused() {
    return refused.get();
  }

  /** Stops serving, releases the locks and leaves the membership. */
  @Override
  public void close() {
    stop(true);
  }

  /**
   * Stops as a crashed process would: the threads stop without releasing anything; the locks and
   * membership vanish only with the ZooKeeper session (the caller closes the client). For fault
   * tests.
   */
  public void halt() {
    stop(false);
  }

  private void stop(boolean release) {
    synchronized (servers) { // no rebalance starts a server after this
      running = false;
      servers.values().forEach(s -> s.stop(release));
      servers.clear();
    }
    membershipWatcher.interrupt();
    if (release) {
      try {
        zk.delete().quietly().forPath(layout.member(member));
      } catch (Exception e) {
        LOG.log(System.Logger.Level.DEBUG, "leaving the membership", e);
      }
    }
  }

  // ---- requests ----

  private static IllegalArgumentException unknown(ControlRequest r) {
    return new IllegalArgumentException(
        "no " + (r.kind().isSubscription() ? "subscription " : "advertisement ") + r.id());
  }

  private static void checkId(String id, String what) {
    if (!ID.matcher(id).matches()) {
      throw new IllegalArgumentException(
          what + " '" + id + "' must be 1-200 of letters, digits and . _ : @ -");
    }
  }

  // ---- ownership ----

  void notifyServingChanged() {
    try {
      servingChanged.run();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "servingChanged failed", e);
    }
  }

  /**
   * A lost session took our locks and membership with it: others may serve our partitions now, so
   * stop writing at once; rejoin when the connection is back.
   */
  private void sessionChanged(ConnectionState state) {
    if (!running) {
      return;
    }
    if (state == ConnectionState.LOST) {
      synchronized (servers) {
        servers.values().forEach(s -> s.stop(false));
        servers.clear();
      }
    } else if (state == ConnectionState.RECONNECTED) {
      try {
        zk.create().withMode(CreateMode.EPHEMERAL).forPath(layout.member(member));
      } catch (KeeperException.NodeExistsException e) {
        // the session survived
      } catch (Exception e) {
        LOG.log(System.Logger.Level.WARNING, "rejoining the membership failed", e);
      }
      membershipChanged.release();
    }
  }

  private void watchMembership() {
    while (running) {
      try {
        List<String> members =
            zk.getChildren()
                .usingWatcher((Watcher) e -> membershipChanged.release())
                .forPath(layout.members());
        rebalance(members);
        membershipChanged.tryAcquire(1, TimeUnit.SECONDS); // the timeout is a backstop
        membershipChanged.drainPermits();
      } catch (InterruptedException e) {
        return;
      } catch (Exception e) {
        if (running) {
          LOG.log(System.Logger.Level.WARNING, "reading the membership failed; retrying", e);
          try {
            Thread.sleep(200); // backoff before asking ZooKeeper again
          } catch (InterruptedException ie) {
            return;
          }
        }
      }
    }
  }

  /** Partition i (in dz order) goes to the i-th live member (by id, cyclically). */
  private void rebalance(List<String> members) {
    List<String> sorted = new ArrayList<>(members);
    sorted.sort(null);
    if (!sorted.contains(member)) {
      return; // not (yet, or no longer) a member: serve nothing new
    }
    synchronized (servers) {
      if (running) {
        deal(sorted);
      }
    }
  }

  private void deal(List<String> sorted) {
    Map<Dz, Boolean> mine = new HashMap<>();
    List<Dz> all = partitions.all();
    for (int i = 0; i < all.size(); i++) {
      mine.put(all.get(i), sorted.get(i % sorted.size()).equals(member));
    }
    mine.forEach(
        (p, own) -> {
          PartitionServer s = servers.get(p);
          if (own && s == null) {
            PartitionServer n = new PartitionServer(this, p);
            servers.put(p, n);
            n.thread.start();
          } else if (!own && s != null) {
            servers.remove(p);
            s.stop(true);
          }
        });
  }

  /** A topology and the number of changes that led to it. */
  record Versioned(long version, Topology topology) {}
}
