package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.Stat;

/**
 * Writes one broker's ephemeral entries by group commit: at most one ZooKeeper request (a {@code
 * multi} transaction, or a single operation when the batch has one) in flight; everything put or
 * removed meanwhile goes into the next (the batching itself: {@link EntryBatcher}). A multi is
 * atomic, so when one fails for a reason of its own operations (NodeExists from an entry a previous
 * session left, NoNode when a topic's container is not there yet or went away) the batch falls back
 * to one request per operation, in parallel, so one bad operation costs the others nothing. A multi
 * cannot create missing parents, so just ahead of a batch the writer sends creates of the
 * containers ({@code /topics/<t>}, {@code /topics/<t>/sub}) it has neither seen nor been told of
 * ({@code parentKnown}: the edge's topic caches), without waiting for them ({@link #send}); a
 * container reaped since fails the multi with NoNode and takes the fallback, whose single creates
 * make missing parents ({@code creatingParentContainersIfNeeded}).
 *
 * <p>Replaces one Curator {@code PersistentNode} per entry and keeps what the edge broker relies on
 * from it: entries are ephemeral, re-created after a new session (detected by the session id on
 * every (re)connection), and a removed entry stays removed. Unlike {@code PersistentNode} it sets
 * no watch per entry, so an entry deleted by another client (there is none: one writer per znode)
 * is not re-created before the next session. Transient failures (connection loss) are retried on
 * reconnection and every second.
 *
 * <p>Threads: callers and Curator's event thread; all state under {@code this}. Listeners are
 * called without the lock.
 */
public final class EntryWriter implements Closeable {
  private static final Logger LOG = Logger.getLogger(EntryWriter.class.getName());

  /** Ops per batch: a 1 000-op multi of entries is ≈ 150 KB, well below jute.maxbuffer. */
  public static final int MAX_OPS = 1000;

  /** Half of ZooKeeper's default {@code jute.maxbuffer} (1 MB): headroom for our size estimate. */
  public static final int MAX_BYTES = 512 * 1024;

  /** Hears of commits and requests (the join benchmark measures with it). */
  public interface Listener {
    /** {@code path} is committed as this writer's entry. */
    default void committed(String path) {}

    /**
     * A request of {@code ops} operations ({@code kind}: multi, container, create, delete, exists,
     * replace).
     */
    default void request(String kind, int ops, long nanos, int resultCode) {}
  }

  private final CuratorFramework client;
  private final EntryBatcher batcher;
  private final Listener listener;
  private final ScheduledExecutorService retries;
  private final ConnectionStateListener connection = (c, state) -> onConnection(state);
  private final Set<String> parents = new java.util.HashSet<>(); // containers seen to exist
  private final Predicate<String> parentKnown; // containers others have seen to exist
  private long sessionId; // the ZooKeeper session the batcher's session stands for (0: none yet)
  private boolean closed;

  private EntryWriter(
      CuratorFramework client,
      String name,
      Listener listener,
      int maxOps,
      Predicate<String> parentKnown) {
    this.client = client;
    this.parentKnown = parentKnown;
    this.batcher = new EntryBatcher(maxOps, MAX_BYTES);
    this.listener = listener;
    this.retries =
        Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().daemon().name("nps-entries-" + name).factory());
  }

  /** A started writer on {@code client}; {@code name} names its thread. */
  public static EntryWriter start(CuratorFramework client, String name) {
    return start(client, name, new Listener() {}, MAX_OPS, parent -> false);
  }

  /**
   * {@code parentKnown}: whether a container is known to exist (an edge's topic caches hold it), so
   * that a batch need not create it first; a wrong answer costs the batch its fallback, no entry.
   */
  public static EntryWriter start(
      CuratorFramework client,
      String name,
      Listener listener,
      int maxOps,
      Predicate<String> parentKnown) {
    EntryWriter w = new EntryWriter(client, name, listener, maxOps, parentKnown);
    client.getConnectionStateListenable().addListener(w.connection);
    w.flush(); // learns the session if connected
    w.retries.scheduleWithFixedDelay(w::flush, 1, 1, TimeUnit.SECONDS);
    return w;
  }

  /** The entry at {@code path} should exist with {@code data}. */
  public void put(String path, byte[] data) {
    synchronized (this) {
      if (closed) {
        return;
      }
      batcher.put(path, data);
    }
    flush();
  }

  /** The entry at {@code path} should not exist. */
  public void remove(String path) {
    synchronized (this) {
      batcher.remove(path);
    }
    flush();
  }

  /** The paths that should exist. */
  public synchronized Set<String> paths() {
    return batcher.desired();
  }

  /** True when {@code path} is committed as this writer's entry. */
  public synchronized boolean isCommitted(String path) {
    return batcher.isCommitted(path);
  }

  /** Removes every entry, waiting up to {@code wait} for the deletes when connected; then stops. */
  public void close(long waitMillis) {
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      batcher.desired().forEach(batcher::remove);
    }
    flush();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    synchronized (this) {
      while (!batcher.isSettled() && client.getZookeeperClient().isConnected()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    client.getConnectionStateListenable().removeListener(connection);
    retries.shutdownNow();
  }

  /** Stops without deleting: the entries go with the session. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
    }
    client.getConnectionStateListenable().removeListener(connection);
    retries.shutdownNow();
  }

  private void onConnection(ConnectionState state) {
    if (state.isConnected()) {
      flush();
    }
  }

  /**
   * Sends the next batch unless one is in flight or there is nothing to write; first, if the
   * session is not the one the entries were written in, has them all written again.
   */
  private void flush() {
    if (!client.getZookeeperClient().isConnected()) {
      return; // the connection listener flushes when it is back
    }
    long id = sessionId();
    EntryBatcher.Batch b;
    synchronized (this) {
      if (id <= 0) {
        return;
      }
      if (id != sessionId) {
        if (sessionId != 0) {
          batcher.newSession(); // the old session's entries are gone: create them again
        }
        sessionId = id;
      }
      b = batcher.next().orElse(null);
    }
    if (b == null) {
      return;
    }
    try {
      send(b);
    } catch (Exception e) {
      LOG.log(Level.FINE, "sending entries", e);
      finish(b, Map.of(), true);
    }
  }

  /**
   * Sends the batch, preceded by creates of the containers its entries need that are not known to
   * exist, parents first. They are not waited for: ZooKeeper applies one client's requests in the
   * order they were sent, so the batch finds them (NodeExists is as good), and a join under a new
   * container costs one round trip, not two. Should one still be missing (its topic went away
   * meanwhile, or a lost connection reordered the requests), the multi fails with NoNode and falls
   * back, and a single create makes its parents itself.
   */
  private void send(EntryBatcher.Batch b) throws Exception {
    for (String container : missingContainers(b)) {
      long sent = System.nanoTime();
      client
          .create()
          .withMode(CreateMode.CONTAINER)
          .inBackground(
              (c, e) -> {
                request("container", 1, sent, e);
                Code rc = Code.get(e.getResultCode());
                if (rc == Code.OK || rc == Code.NODEEXISTS) {
                  synchronized (this) {
                    parents.add(container);
                  }
                }
              })
          .forPath(container);
    }
    if (b.ops().size() == 1) {
      sendEach(b);
    } else {
      sendMultiNow(b);
    }
  }

  /**
   * The containers above the batch's creates that neither this writer nor {@code parentKnown} knows
   * to exist, parents first; never a top-level node (the tree's roots are made at start: {@link
   * OverlayTree#makeRoots}).
   */
  private synchronized Set<String> missingContainers(EntryBatcher.Batch b) {
    Set<String> missing = new java.util.LinkedHashSet<>();
    for (EntryBatcher.Op op : b.ops()) {
      if (op instanceof EntryBatcher.Delete) {
        continue;
      }
      List<String> unknown = new ArrayList<>();
      for (String p : containersAbove(op.path())) {
        if (parents.contains(p) || parentKnown.test(p)) {
          break; // and so are its parents
        }
        unknown.add(p);
      }
      missing.addAll(unknown.reversed());
    }
    return missing;
  }

  /** The nodes above {@code path} below the top level, nearest first: its parent, its topic. */
  private static List<String> containersAbove(String path) {
    List<String> out = new ArrayList<>();
    for (String p = ZKPaths.getPathAndNode(path).getPath();
        p.lastIndexOf('/') > 0;
        p = ZKPaths.getPathAndNode(p).getPath()) {
      out.add(p);
    }
    return out;
  }

  private void sendMultiNow(EntryBatcher.Batch b) throws Exception {
    List<CuratorOp> ops = new ArrayList<>();
    for (EntryBatcher.Op op : b.ops()) {
      ops.addAll(curatorOps(op));
    }
    long sent = System.nanoTime();
    client
        .transaction()
        .inBackground(
            (c, event) -> {
              listener.request(
                  "multi", ops.size(), System.nanoTime() - sent, event.getResultCode());
              onMulti(b, event);
            })
        .forOperations(ops);
  }

  private void onMulti(EntryBatcher.Batch b, CuratorEvent event) {
    Code rc = Code.get(event.getResultCode());
    if (rc == Code.OK) {
      Map<String, EntryBatcher.Known> out = new HashMap<>();
      for (EntryBatcher.Op op : b.ops()) {
        out.put(
            op.path(),
            op instanceof EntryBatcher.Delete
                ? EntryBatcher.Known.ABSENT
                : EntryBatcher.Known.PRESENT);
      }
      finish(b, out, false);
    } else if (isTransient(rc)) {
      finish(b, Map.of(), true);
    } else {
      if (rc == Code.NONODE) {
        synchronized (this) { // a container (or topic) reaped since it was seen: the fallback
          b.ops().forEach(op -> containersAbove(op.path()).forEach(parents::remove)); // makes it
        }
      }
      try {
        sendEach(b); // one operation failed the whole transaction: each on its own
      } catch (Exception e) {
        finish(b, Map.of(), true);
      }
    }
  }

  /** One request per operation, in parallel; the batch finishes when all have answered. */
  private void sendEach(EntryBatcher.Batch b) throws Exception {
    Map<String, EntryBatcher.Known> out = new HashMap<>();
    int[] left = {b.ops().size()};
    boolean[] failed = {false};
    for (EntryBatcher.Op op : b.ops()) {
      java.util.function.Consumer<EntryBatcher.Known> done =
          k -> {
            boolean last;
            synchronized (out) {
              out.put(op.path(), k);
              failed[0] |= k == EntryBatcher.Known.UNKNOWN;
              last = --left[0] == 0;
            }
            if (last) {
              finish(b, out, failed[0]);
            }
          };
      try {
        sendOne(op, done);
      } catch (Exception e) {
        LOG.log(Level.FINE, "entry " + op.path(), e);
        done.accept(EntryBatcher.Known.UNKNOWN);
      }
    }
  }

  private void sendOne(EntryBatcher.Op op, java.util.function.Consumer<EntryBatcher.Known> done)
      throws Exception {
    long sent = System.nanoTime();
    switch (op) {
      case EntryBatcher.Create c ->
          client
              .create()
              .creatingParentContainersIfNeeded()
              .withMode(CreateMode.EPHEMERAL)
              .inBackground(
                  (x, e) -> {
                    request("create", 1, sent, e);
                    Code rc = Code.get(e.getResultCode());
                    if (rc == Code.OK) {
                      done.accept(EntryBatcher.Known.PRESENT);
                    } else if (rc == Code.NODEEXISTS) {
                      owner(c.path(), done); // ours from a retried request, or a previous session's
                    } else {
                      done.accept(EntryBatcher.Known.UNKNOWN);
                    }
                  })
              .forPath(c.path(), c.data());
      case EntryBatcher.Delete d ->
          client
              .delete()
              .inBackground(
                  (x, e) -> {
                    request("delete", 1, sent, e);
                    Code rc = Code.get(e.getResultCode());
                    done.accept(
                        rc == Code.OK || rc == Code.NONODE
                            ? EntryBatcher.Known.ABSENT
                            : EntryBatcher.Known.UNKNOWN);
                  })
              .forPath(d.path());
      case EntryBatcher.SetData d ->
          client
              .setData()
              .inBackground(
                  (x, e) -> {
                    request("set", 1, sent, e);
                    done.accept( // NoNode: gone (a new session's work): create it again
                        e.getResultCode() == 0
                            ? EntryBatcher.Known.PRESENT
                            : EntryBatcher.Known.UNKNOWN);
                  })
              .forPath(d.path(), d.data());
      case EntryBatcher.Replace r ->
          client
              .transaction()
              .inBackground(
                  (x, e) -> {
                    request("replace", 2, sent, e);
                    done.accept(
                        e.getResultCode() == 0
                            ? EntryBatcher.Known.PRESENT
                            : EntryBatcher.Known.UNKNOWN); // create next: NodeExists tells again
                  })
              .forOperations(curatorOps(r));
    }
  }

  /** Whose entry {@code path} is: this session's (present) or another's (foreign). */
  private void owner(String path, java.util.function.Consumer<EntryBatcher.Known> done)
      throws Exception {
    long sent = System.nanoTime();
    client
        .checkExists()
        .inBackground(
            (x, e) -> {
              request("exists", 1, sent, e);
              Stat s = e.getStat();
              long mine = sessionId();
              if (e.getResultCode() != 0 || s == null) {
                done.accept(EntryBatcher.Known.UNKNOWN); // gone meanwhile: create again
              } else if (s.getEphemeralOwner() == mine) {
                done.accept(EntryBatcher.Known.OURS);
              } else {
                done.accept(EntryBatcher.Known.foreign(s.getVersion()));
              }
            })
        .forPath(path);
  }

  private List<CuratorOp> curatorOps(EntryBatcher.Op op) throws Exception {
    return switch (op) {
      case EntryBatcher.Create c ->
          List.of(
              client
                  .transactionOp()
                  .create()
                  .withMode(CreateMode.EPHEMERAL)
                  .forPath(c.path(), c.data()));
      case EntryBatcher.Delete d -> List.of(client.transactionOp().delete().forPath(d.path()));
      case EntryBatcher.SetData d ->
          List.of(client.transactionOp().setData().forPath(d.path(), d.data()));
      case EntryBatcher.Replace r ->
          List.of(
              client.transactionOp().delete().withVersion(r.version()).forPath(r.path()),
              client
                  .transactionOp()
                  .create()
                  .withMode(CreateMode.EPHEMERAL)
                  .forPath(r.path(), r.data()));
    };
  }

  private long sessionId() {
    try {
      return client.getZookeeperClient().getZooKeeper().getSessionId();
    } catch (Exception e) {
      return -1;
    }
  }

  private void request(String kind, int ops, long sent, CuratorEvent e) {
    listener.request(kind, ops, System.nanoTime() - sent, e.getResultCode());
  }

  /** The batch is back: record it, tell listeners, send the next (later after a failure). */
  private void finish(EntryBatcher.Batch b, Map<String, EntryBatcher.Known> out, boolean failed) {
    List<String> done;
    synchronized (this) {
      done = batcher.finished(b, out);
      notifyAll();
    }
    for (String p : done) {
      try {
        listener.committed(p);
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "entry listener", e);
      }
    }
    if (!failed) {
      flush();
    } else {
      try {
        retries.schedule(this::flush, 200, TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // closed
      }
    }
  }

  private static boolean isTransient(Code rc) {
    return rc == Code.CONNECTIONLOSS
        || rc == Code.SESSIONEXPIRED
        || rc == Code.SESSIONMOVED
        || rc == Code.OPERATIONTIMEOUT;
  }
}
