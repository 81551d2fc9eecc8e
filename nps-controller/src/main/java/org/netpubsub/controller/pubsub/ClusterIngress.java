package org.netpubsub.controller.pubsub;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.LongFunction;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.controller.controlplane.RequestCodec;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Publishing enforced at the host ports in a cluster of controller processes (docs/security.md):
 * one process, the writer, writes every host port's drops ({@link IngressGuard}) from the
 * advertisements of every process, read from ZooKeeper. The others want no drops, and their
 * reconciles leave them alone ({@code writes}, read by the reconcile scope), so no two processes
 * fight over them.
 *
 * <pre>
 * ROOT/requests/ID        the cluster's standing additions (the advertisements' hosts and cells)
 * ROOT/ingress-writer     LeaderLatch: the one process that writes the drops
 * ROOT/ingress/tick       set by a process after it carried out an advertisement or withdrawal
 * ROOT/ingress/applied    the newest tick (its mzxid) the writer's drops follow, acknowledged
 * </pre>
 *
 * <p>A process answering an advertisement or a withdrawal sets the tick and waits until {@code
 * applied} reaches its mzxid ({@link #sync}). The writer watches the tick; told of a change, it
 * reads the tick and then the requests: ZooKeeper's reads on one session never go back, so it sees
 * every request change ordered before that tick. It writes the ports whose drops changed, waits for
 * the switches' acknowledgement, and records the tick. A new writer (the old one died or left)
 * brings every switch's drops to exactly what the advertisements want ({@link
 * IngressGuard#takeOver}) before it records a tick.
 *
 * <p>Fencing: a writer paused past its ZooKeeper session (a long GC, a stopped VM) must not write
 * after another process took the latch, and OpenFlow gives the switches no compare-and-set to
 * refuse it. So before each write the writer proves it still holds the latch on a live session
 * ({@link #lease}: a quorum check of its latch node, which the session owns, and that node the
 * lowest), and the write leaves for the switches only while that proof is younger than half the
 * session timeout, checked on the flow loop just before the flow-mods are handed on: no other
 * process can hold the latch before the session expires. Connection trouble (suspended, lost) stops
 * the reconciles' writing of drops at once, from ZooKeeper's thread, not the writer's.
 */
public final class ClusterIngress implements Ingress, AutoCloseable {
  private static final System.Logger LOG = System.getLogger(ClusterIngress.class.getName());

  /** How long the writer waits for the switches before it tries again. */
  private static final long WRITE_SECONDS = 20;

  private final CuratorFramework zk;
  private final String requestsPath;
  private final String tickPath;
  private final String appliedPath;
  private final String replacedPath; // its version: how many re-cuts replaced requests by id
  private int replacedSeen = -1; // on thread
  private final String latchPath;
  private final AtomicBoolean writes;
  private final LeaderLatch latch;
  private volatile boolean leader; // the latch said so: refreshes run (writes follows on the loop)
  private final AtomicLong fenced = new AtomicLong();
  private volatile Runnable beforeWrite = () -> {}; // tests pause a writer here
  // leadership and refreshes, one at a time and in order
  private final ScheduledExecutorService thread =
      Executors.newSingleThreadScheduledExecutor(
          Thread.ofPlatform().daemon().name("cluster-ingress").factory());
  private final AtomicBoolean queued = new AtomicBoolean();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final Watcher tickWatcher = event -> queueRefresh(false);
  private final Map<String, Optional<ControlRequest>> known = new HashMap<>(); // on thread
  private volatile Map<Ipv6Address, DzSet> advertised = Map.of();
  private IngressGuard guard;

  private ClusterIngress(CuratorFramework zk, String root, String member, AtomicBoolean writes) {
    this.zk = zk;
    this.requestsPath = RequestCodec.requests(root);
    this.tickPath = root + "/ingress/tick";
    this.appliedPath = root + "/ingress/applied";
    this.replacedPath = root + "/ingress/replaced";
    this.writes = writes;
    this.latchPath = root + "/ingress-writer";
    this.latch = new LeaderLatch(zk, latchPath, member);
  }

  /**
   * Joins the cluster under {@code root} (the control plane's root) as {@code member}: this process
   * writes the drops of every host port of {@code flows}' switches while it holds the writer latch
   * ({@code writes} says so to the reconciles, which must manage the ingress drops only then).
   */
  public static ClusterIngress start(
      CuratorFramework zk,
      String root,
      String member,
      FlowService flows,
      LongFunction<Optional<SwitchHandle>> switches,
      AtomicBoolean writes)
      throws Exception {
    ClusterIngress c = new ClusterIngress(zk, root, member, writes);
    for (String path : List.of(c.tickPath, c.appliedPath, c.replacedPath)) {
      try {
        zk.create().creatingParentsIfNeeded().forPath(path, bytes(0));
      } catch (KeeperException.NodeExistsException e) {
        // there already
      }
    }
    writes.set(false);
    c.guard =
        IngressGuard.attach(flows, IngressGuard.pleroma(() -> c.advertised), writes::get, switches);
    c.latch.addListener(
        new LeaderLatchListener() {
          @Override
          public void isLeader() {
            c.leader = true; // the takeover sets writes, on the loop
            c.refresh(true);
          }

          @Override
          public void notLeader() {
            c.leader = false;
            c.writes.set(false);
            c.guard.release().join();
          }
        },
        c.thread);
    zk.getConnectionStateListenable()
        .addListener(
            (client, state) -> {
              if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
                writes.set(false); // maybe not the writer any more: reconciles leave drops alone
              } else if (state == ConnectionState.RECONNECTED) {
                c.queueRefresh(true); // a writer still: written in full again, after a lease
              }
            });
    c.latch.start();
    return c;
  }

  /** How many writes were refused because this process could not prove it holds the latch. */
  long fenced() {
    return fenced.get();
  }

  /**
   * Runs {@code r} on the writer's thread after each lease, before its write (tests pause here).
   */
  void beforeWrite(Runnable r) {
    beforeWrite = r;
  }

  /** True while this process writes the cluster's ingress drops. */
  public boolean writes() {
    return writes.get();
  }

  /**
   * Sets the tick and completes once the writer's drops follow it: every advertisement and
   * withdrawal carried out before the call, at any process.
   */
  @Override
  public CompletableFuture<Long> sync() {
    CompletableFuture<Long> applied = new CompletableFuture<>();
    try {
      long tick = zk.setData().forPath(tickPath, new byte[0]).getMzxid();
      awaitApplied(tick, applied);
    } catch (Exception e) {
      applied.completeExceptionally(e);
    }
    return applied;
  }

  /**
   * Bumps the replaced node's version before the tick, so the writer, reading it after the tick,
   * reads every request again rather than the advertisements it kept by id.
   */
  @Override
  public CompletableFuture<?> syncReplaced() {
    try {
      zk.setData().forPath(replacedPath, new byte[0]);
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
    return sync();
  }

  /** Read from the switches by this process: every process is connected to every switch. */
  @Override
  public CompletableFuture<SortedMap<SwitchPort, Long>> dropped() {
    return guard.dropped();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      latch.close(); // another process writes the drops at once
    } catch (IOException e) {
      LOG.log(System.Logger.Level.DEBUG, "leaving the ingress writer latch", e);
    }
    thread.shutdown();
  }

  private void awaitApplied(long tick, CompletableFuture<Long> applied) {
    if (applied.isDone()) {
      return;
    }
    Watcher w = event -> awaitApplied(tick, applied);
    try {
      long now = parse(zk.getData().usingWatcher(w).forPath(appliedPath));
      if (now >= tick) {
        applied.complete(now);
      }
    } catch (Exception e) {
      applied.completeExceptionally(e);
    }
  }

  // ---- the writer: on thread ----

  private void queueRefresh(boolean full) {
    if (leader && !closed.get() && queued.compareAndSet(false, true)) {
      try {
        thread.execute(() -> refresh(full));
      } catch (RuntimeException e) {
        queued.set(false); // shut down meanwhile
      }
    }
  }

  /**
   * Reads the tick (watching it again), then the advertisements, takes a lease, writes the drops
   * ({@code full}: every switch's, exactly, and this process writes from now on; else the ports
   * that changed) and records the tick. On failure it tries again, in full, a second later.
   */
  private void refresh(boolean full) {
    queued.set(false);
    if (!leader || closed.get()) {
      return;
    }
    try {
      Stat tick = zk.checkExists().usingWatcher(tickWatcher).forPath(tickPath);
      advertised = readAdvertisements();
      long until = lease();
      beforeWrite.run();
      BooleanSupplier fence = () -> leader && System.nanoTime() - until < 0;
      (full
              ? guard.takeOver(fence, () -> writes.set(true))
              : guard.sync(() -> fence.getAsBoolean() && writes.get()))
          .get(WRITE_SECONDS, TimeUnit.SECONDS);
      record(tick == null ? 0 : tick.getMzxid());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      if (e instanceof IngressGuard.Fenced || e.getCause() instanceof IngressGuard.Fenced) {
        // maybe only paused past the lease: a writer still if the latch says so a second later
        fenced.incrementAndGet();
        writes.set(false);
        LOG.log(System.Logger.Level.WARNING, "ingress drops not written: " + e.getMessage());
      } else {
        LOG.log(System.Logger.Level.WARNING, "writing the ingress drops failed; again in 1 s", e);
      }
      if (!closed.get()) {
        thread.schedule(() -> refresh(true), 1, TimeUnit.SECONDS);
      }
    }
  }

  /**
   * Proves this process holds the writer latch on a live session: its latch node (ephemeral, so
   * gone once the session expired) passes a quorum check and is the lowest. Returns the {@link
   * System#nanoTime} until which a write may leave: the session, heard from no earlier than the
   * check was sent, cannot expire (and no other process take the latch) before a session timeout
   * has passed; half of it is the margin.
   */
  private long lease() throws Exception {
    long sent = System.nanoTime();
    String ours = latch.getOurPath();
    if (ours == null) {
      throw new IngressGuard.Fenced();
    }
    try {
      zk.transaction().forOperations(zk.transactionOp().check().forPath(ours));
    } catch (KeeperException.NoNodeException e) {
      throw new IngressGuard.Fenced();
    }
    String node = ZKPaths.getNodeFromPath(ours);
    List<String> children = zk.getChildren().forPath(latchPath);
    if (children.stream()
        .min(Comparator.comparing(ClusterIngress::sequence))
        .filter(node::equals)
        .isEmpty()) {
      throw new IngressGuard.Fenced();
    }
    long timeout = zk.getZookeeperClient().getZooKeeper().getSessionTimeout();
    return sent + TimeUnit.MILLISECONDS.toNanos(timeout) / 2;
  }

  /** A latch node's sequence number, its name's last ten digits (after a protection prefix). */
  private static String sequence(String node) {
    return node.substring(Math.max(0, node.length() - 10));
  }

  /**
   * The cells each host advertised, over the cluster's standing additions. A request's bytes are
   * read once: a random id is never used again, but a keyed one ({@code a:KEY}) may name a new
   * request after a withdrawal, so those are read each time, and a re-cut replaces requests under
   * their ids ({@link #syncReplaced}), so after one every request is read again.
   */
  private Map<Ipv6Address, DzSet> readAdvertisements() throws Exception {
    org.apache.zookeeper.data.Stat replaced = zk.checkExists().forPath(replacedPath);
    int version = replaced == null ? -1 : replaced.getVersion();
    if (version != replacedSeen) {
      known.clear();
      replacedSeen = version;
    }
    List<String> ids = zk.getChildren().forPath(requestsPath);
    Set<String> live = new HashSet<>(ids);
    known.keySet().retainAll(live);
    for (String id : ids) {
      if (known.containsKey(id) && id.indexOf(':') < 0) {
        continue;
      }
      try {
        ControlRequest r = RequestCodec.decode(zk.getData().forPath(requestsPath + "/" + id));
        known.put(
            id, r.kind() == ControlRequest.Kind.ADVERTISE ? Optional.of(r) : Optional.empty());
      } catch (KeeperException.NoNodeException e) {
        known.remove(id); // withdrawn between the listing and the read
      } catch (IllegalArgumentException e) {
        LOG.log(System.Logger.Level.ERROR, "ignored request " + id + ": " + e.getMessage());
        known.put(id, Optional.empty());
      }
    }
    Map<Ipv6Address, DzSet> out = new HashMap<>();
    known.values().forEach(o -> o.ifPresent(r -> out.merge(r.host(), r.cells(), DzSet::union)));
    return out;
  }

  /** {@code applied} becomes {@code tick} unless it is newer already (a writer that was slower). */
  private void record(long tick) throws Exception {
    while (true) {
      Stat stat = new Stat();
      long now = parse(zk.getData().storingStatIn(stat).forPath(appliedPath));
      if (now >= tick) {
        return;
      }
      try {
        zk.setData().withVersion(stat.getVersion()).forPath(appliedPath, bytes(tick));
        return;
      } catch (KeeperException.BadVersionException e) {
        // another writer recorded meanwhile: look again
      }
    }
  }

  private static byte[] bytes(long tick) {
    return Long.toString(tick).getBytes(StandardCharsets.UTF_8);
  }

  private static long parse(byte[] data) {
    try {
      return data == null || data.length == 0
          ? 0
          : Long.parseLong(new String(data, StandardCharsets.UTF_8));
    } catch (NumberFormatException e) {
      return 0; // unreadable: as if nothing was applied, the next record replaces it
    }
  }
}
