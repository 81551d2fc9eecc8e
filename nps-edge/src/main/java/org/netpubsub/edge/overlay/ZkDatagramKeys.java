package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * A broker's datagram keys from the key znode ({@link ZnodePaths#DATAGRAM_KEYS}, docs/security.md):
 * read at start, watched, and applied to one {@link DatagramAuth} as {@link KeyGrace} says, the
 * previous key dropped when its grace ends. After each change it writes the highest key id it
 * accepts to its ephemeral {@code /keys/accepted/<member>}, so a rotation promotes a key only once
 * every live broker accepts it. Keys are never logged: only their ids. One thread, for the reads
 * and the grace timer; its state is one key set.
 */
public final class ZkDatagramKeys implements Closeable {
  private static final Logger LOG = Logger.getLogger(ZkDatagramKeys.class.getName());

  private final CuratorFramework client;
  private final String accepted;
  private final ScheduledExecutorService thread;
  private final KeyGrace grace = new KeyGrace();
  private final AtomicLong rotations = new AtomicLong();
  private final AtomicLong invalid = new AtomicLong();
  private final ConnectionStateListener reconnect;
  // one watcher object: ZooKeeper keeps one watch per (path, watcher), so refreshing after a
  // reconnect does not pile up watches that each trigger a read
  private final CuratorWatcher watch = e -> submit(this::refresh);
  private DatagramAuth auth; // the thread's, once start() has returned
  private DatagramKeys keys;
  private ScheduledFuture<?> expiry;
  private volatile boolean closed;

  private ZkDatagramKeys(CuratorFramework client, String member) {
    this.client = client;
    this.accepted = ZnodePaths.ACCEPTED_KEYS + "/" + member;
    this.thread =
        Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().daemon().name("nps-datagram-keys").unstarted(r));
    this.reconnect =
        (c, s) -> {
          if (s == ConnectionState.RECONNECTED) {
            submit(this::refresh); // watches and ephemerals may be gone with the old session
          }
        };
  }

  /**
   * Reads the keys of a routing broker ({@code broker}: true) or an edge broker named {@code name}
   * and keeps them current until closed; refused with the reason when the znode is missing,
   * invalid, or readable by anyone (a client without ZooKeeper credentials created it).
   */
  public static ZkDatagramKeys start(CuratorFramework client, boolean broker, String name)
      throws Exception {
    ZkDatagramKeys k =
        new ZkDatagramKeys(client, (broker ? "brokers/" : "edges/") + ZnodePaths.checkName(name));
    try {
      if (client.checkExists().forPath(ZnodePaths.DATAGRAM_KEYS) == null) {
        throw new IllegalArgumentException(
            "no datagram keys in ZooKeeper at "
                + ZnodePaths.DATAGRAM_KEYS
                + ": run nps overlay keys rotate first");
      }
      for (ACL a : client.getACL().forPath(ZnodePaths.DATAGRAM_KEYS)) {
        if (a.getId().equals(ZooDefs.Ids.ANYONE_ID_UNSAFE)
            && (a.getPerms() & ZooDefs.Perms.READ) != 0) {
          throw new IllegalArgumentException(
              ZnodePaths.DATAGRAM_KEYS
                  + " is readable by anyone: recreate it with --zookeeper-auth");
        }
      }
      k.thread.submit(k::refresh).get();
      if (k.auth == null) {
        throw new IllegalArgumentException(
            ZnodePaths.DATAGRAM_KEYS + " holds no valid keys (see the log)");
      }
    } catch (Exception e) {
      k.close();
      throw e;
    }
    client.getConnectionStateListenable().addListener(k.reconnect);
    return k;
  }

  /** The authentication the brokers use: its keys change as the znode does. */
  public DatagramAuth auth() {
    return auth;
  }

  /** {@code key_rotations} (signing key changes seen) and {@code key_znode_invalid}. */
  public Map<String, Long> counters() {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("key_rotations", rotations.get());
    m.put("dropped.key_znode_invalid", invalid.get());
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
    byte[] data;
    try {
      data = client.getData().usingWatcher(watch).forPath(ZnodePaths.DATAGRAM_KEYS);
    } catch (KeeperException.NoNodeException e) {
      LOG.warning(ZnodePaths.DATAGRAM_KEYS + " was deleted: keeping the keys held");
      watchCreation();
      return;
    } catch (Exception e) {
      LOG.log(Level.WARNING, "cannot read " + ZnodePaths.DATAGRAM_KEYS + ": " + e);
      return; // the reconnect listener reads again
    }
    DatagramKeys k;
    try {
      k = DatagramKeys.parse(data);
    } catch (IllegalArgumentException e) {
      invalid.incrementAndGet();
      LOG.warning(ZnodePaths.DATAGRAM_KEYS + " ignored, keeping the keys held: " + e.getMessage());
      return;
    }
    if (keys != null && k.current().id() != keys.current().id()) {
      rotations.incrementAndGet();
    }
    keys = k;
    apply();
    LOG.info(
        "datagram key "
            + k.current().id()
            + " signs"
            + (k.next() != null ? ", key " + k.next().id() + " accepted as next" : ""));
    acknowledge(k.highestId());
  }

  private void watchCreation() {
    try {
      client.checkExists().usingWatcher(watch).forPath(ZnodePaths.DATAGRAM_KEYS);
    } catch (Exception e) {
      LOG.log(Level.WARNING, "cannot watch " + ZnodePaths.DATAGRAM_KEYS + ": " + e);
    }
  }

  /** Installs the keys {@link KeyGrace} accepts now and times the end of the grace. */
  private void apply() {
    long now = System.nanoTime();
    List<byte[]> accept = grace.accepted(keys, now);
    if (auth == null) {
      auth = DatagramAuth.of(accept);
    } else {
      auth.update(accept);
    }
    if (expiry != null) {
      expiry.cancel(false);
    }
    long wait = grace.untilChange(keys, now);
    expiry = wait < 0 ? null : thread.schedule(this::apply, wait, TimeUnit.NANOSECONDS);
  }

  private void acknowledge(long id) {
    byte[] d = Long.toString(id).getBytes(StandardCharsets.UTF_8);
    try {
      try {
        client.setData().forPath(accepted, d);
      } catch (KeeperException.NoNodeException e) {
        client
            .create()
            .creatingParentContainersIfNeeded()
            .withMode(CreateMode.EPHEMERAL)
            .forPath(accepted, d);
      }
    } catch (Exception e) {
      LOG.log(Level.WARNING, "cannot write " + accepted + ": " + e);
    }
  }

  @Override
  public void close() {
    closed = true;
    client.getConnectionStateListenable().removeListener(reconnect);
    thread.shutdownNow();
    try {
      client.delete().quietly().forPath(accepted);
    } catch (Exception e) {
      // the session's end removes it too
    }
  }
}
