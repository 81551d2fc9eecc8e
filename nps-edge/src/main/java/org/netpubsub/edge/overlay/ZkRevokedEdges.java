package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.logging.Logger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;

/**
 * The overlay's revoked edges from the revoked-edges znode ({@link ZnodePaths#REVOKED_EDGES},
 * docs/security-revocation.md), for a routing broker or an edge broker with ZooKeeper credentials:
 * read at start, watched, read again after a reconnect, and handed to {@code apply} at each change
 * (the broker refuses their datagrams as {@code revoked_origin}, beside its {@code --revoked-edges}
 * file: {@link RevokedUnion}). A znode that does not parse, or that anyone may write, keeps the
 * last good list (a bad edit never lifts a revocation): counted, logged once per reason. A deleted
 * znode keeps the list too; absent at start, nothing is revoked. One thread for the reads. Also the
 * writes of {@code nps overlay keys revoke}, conditional on the version read.
 */
public final class ZkRevokedEdges implements Closeable {
  private static final Logger LOG = Logger.getLogger(ZkRevokedEdges.class.getName());
  private static final String PATH = ZnodePaths.REVOKED_EDGES;
  private static final int WRITE_TRIES = 10;

  private final CuratorFramework client;
  private final Consumer<Set<String>> apply;
  private final ExecutorService thread;
  private final AtomicLong updates = new AtomicLong();
  private final AtomicLong invalid = new AtomicLong();
  private final ConnectionStateListener reconnect;
  // one watcher object: ZooKeeper keeps one watch per (path, watcher), so a read after a
  // reconnect does not pile up watches
  // a change of the znode only: after a session ends, its watch is gone and the reconnect
  // listener reads again (connection events carry no change)
  private final CuratorWatcher watch =
      e -> {
        if (e.getType() != Watcher.Event.EventType.None) {
          submit(this::refresh);
        }
      };
  private volatile Set<String> edges = Set.of();
  private String problem; // the reason last logged while the znode is bad (the thread's)
  private Exception failure; // the first read's, to refuse the start with (the thread's)
  private boolean started; // a first read succeeded (the thread's)
  private volatile boolean closed;

  private ZkRevokedEdges(CuratorFramework client, Consumer<Set<String>> apply) {
    this.client = client;
    this.apply = apply;
    this.thread =
        Executors.newSingleThreadExecutor(
            r -> Thread.ofPlatform().daemon().name("nps-revoked-edges").unstarted(r));
    this.reconnect =
        (c, s) -> {
          if (s == ConnectionState.RECONNECTED) {
            submit(this::refresh); // the watch may be gone with the old session
          }
        };
  }

  /**
   * Reads the znode, gives {@code apply} its edges (none when it is absent) and keeps them current
   * until closed; refused with the reason (naming the field) when the znode cannot be read, does
   * not parse or may be written by anyone.
   */
  public static ZkRevokedEdges start(CuratorFramework client, Consumer<Set<String>> apply)
      throws Exception {
    ZkRevokedEdges z = new ZkRevokedEdges(client, apply);
    try {
      z.thread.submit(z::refresh).get();
      if (z.failure != null) {
        throw z.failure;
      }
    } catch (ExecutionException e) {
      z.close();
      throw new IllegalStateException(e.getCause());
    } catch (Exception e) {
      z.close();
      throw e;
    }
    client.getConnectionStateListenable().addListener(z.reconnect);
    return z;
  }

  /** The revoked edges now: the znode's last good list. */
  public Set<String> edges() {
    return edges;
  }

  /** {@code revoked_znode_updates} (lists applied) and {@code dropped.revoked_znode_invalid}. */
  public Map<String, Long> counters() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("revoked_znode_updates", updates.get());
    m.put("dropped.revoked_znode_invalid", invalid.get());
    return m;
  }

  private void submit(Runnable r) {
    if (!closed) {
      try {
        thread.execute(r);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        // closing
      }
    }
  }

  /** Reads the znode, setting a watch for its next change (on this thread). */
  private void refresh() {
    if (closed) {
      return;
    }
    boolean first = !started;
    Set<String> now;
    try {
      byte[] data = client.getData().usingWatcher(watch).forPath(PATH);
      now = RevokedZnode.parse(data);
      if (writableByAnyone()) {
        throw new IllegalArgumentException("writable by anyone: rewrite it with --zookeeper-auth");
      }
    } catch (KeeperException.NoNodeException e) {
      watchCreation();
      if (first) {
        started = true;
        apply.accept(Set.of()); // nothing revoked yet
      } else {
        once("deleted: keeping the " + edges.size() + " edges revoked");
      }
      return;
    } catch (IllegalArgumentException e) {
      if (first) {
        failure = new IllegalArgumentException(PATH + ": " + e.getMessage());
        return;
      }
      invalid.incrementAndGet();
      once("ignored, keeping the " + edges.size() + " edges revoked: " + e.getMessage());
      return;
    } catch (Exception e) {
      if (first) {
        failure = e;
      } else {
        LOG.warning("cannot read " + PATH + ": " + e); // the reconnect listener reads again
      }
      return;
    }
    if (problem != null) {
      LOG.info(PATH + " is valid again");
      problem = null;
    }
    started = true;
    Set<String> before = edges;
    edges = now;
    updates.incrementAndGet();
    apply.accept(now);
    if (!now.equals(before)) {
      LOG.info(PATH + ": " + now.size() + " edges revoked" + changes(before, now));
    }
  }

  private boolean writableByAnyone() throws Exception {
    for (ACL a : client.getACL().forPath(PATH)) {
      if (a.getId().equals(ZooDefs.Ids.ANYONE_ID_UNSAFE)
          && (a.getPerms() & ZooDefs.Perms.WRITE) != 0) {
        return true;
      }
    }
    return false;
  }

  private void once(String why) {
    if (!why.equals(problem)) {
      LOG.warning(PATH + " " + why);
      problem = why;
    }
  }

  /** What changed, at most 8 names each way (names only: nothing secret). */
  private static String changes(Set<String> before, Set<String> now) {
    Set<String> added = new TreeSet<>(now);
    added.removeAll(before);
    Set<String> lifted = new TreeSet<>(before);
    lifted.removeAll(now);
    return (added.isEmpty() ? "" : "; revoked " + first8(added))
        + (lifted.isEmpty() ? "" : "; lifted " + first8(lifted));
  }

  private static String first8(Set<String> names) {
    return names.size() <= 8
        ? String.join(", ", names)
        : String.join(", ", names.stream().limit(8).toList())
            + " and "
            + (names.size() - 8)
            + " more";
  }

  /** Watches for the znode's creation; reads it if it was created since the read that missed. */
  private void watchCreation() {
    try {
      if (client.checkExists().usingWatcher(watch).forPath(PATH) != null) {
        submit(this::refresh); // created in between (unrevoke --all deletes and creates)
      }
    } catch (Exception e) {
      LOG.warning("cannot watch " + PATH + ": " + e);
    }
  }

  @Override
  public void close() {
    closed = true;
    client.getConnectionStateListenable().removeListener(reconnect);
    thread.shutdownNow();
  }

  // ---- writing (nps overlay keys revoke / unrevoke) ----

  /** The znode's edges (none when it is absent); refused naming the field when it is bad. */
  public static Set<String> read(CuratorFramework client) throws Exception {
    try {
      return parse(client.getData().forPath(PATH));
    } catch (KeeperException.NoNodeException e) {
      return Set.of();
    }
  }

  /**
   * Replaces the znode's edges with {@code change} of them, created (with the client's ACL: its
   * credentials only) if absent; conditional on the version read, so concurrent writers each see
   * the other's names. Returns the edges written.
   */
  public static Set<String> update(CuratorFramework client, UnaryOperator<Set<String>> change)
      throws Exception {
    for (int i = 0; i < WRITE_TRIES; i++) {
      Stat stat = new Stat();
      byte[] data;
      try {
        data = client.getData().storingStatIn(stat).forPath(PATH);
      } catch (KeeperException.NoNodeException e) {
        Set<String> out = change.apply(Set.of());
        try {
          client
              .create()
              .creatingParentContainersIfNeeded()
              .forPath(PATH, RevokedZnode.toJson(out));
          return out;
        } catch (KeeperException.NodeExistsException raced) {
          continue;
        }
      }
      Set<String> out = change.apply(parse(data));
      try {
        client.setData().withVersion(stat.getVersion()).forPath(PATH, RevokedZnode.toJson(out));
        return out;
      } catch (KeeperException.BadVersionException | KeeperException.NoNodeException raced) {
        // another writer: read again
      }
    }
    throw new java.io.IOException(PATH + " changed " + WRITE_TRIES + " times while writing it");
  }

  /**
   * Writes {@code names} whatever the znode held (even if it does not parse or anyone may write
   * it): deleted and created anew, so it takes the client's ACL.
   */
  public static void replace(CuratorFramework client, Set<String> names) throws Exception {
    byte[] data = RevokedZnode.toJson(names);
    client.delete().quietly().forPath(PATH);
    client.create().creatingParentContainersIfNeeded().forPath(PATH, data);
  }

  private static Set<String> parse(byte[] data) {
    try {
      return RevokedZnode.parse(data);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          PATH + ": " + e.getMessage() + " (unrevoke --all rewrites it empty)");
    }
  }
}
