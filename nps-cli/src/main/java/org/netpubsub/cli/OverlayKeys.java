package org.netpubsub.cli;

import java.io.Closeable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.overlay.ZkDatagramKeys;

/**
 * Where an overlay broker's datagram keys come from (docs/security-datagrams.md, which source
 * wins): {@code --datagram-key FILE} or {@code --insecure-datagrams} when given; else, with {@code
 * --zookeeper-auth}, the key znode, watched for rotations; else none, and the broker refuses to
 * start.
 */
final class OverlayKeys {
  private final DatagramAuth auth;
  private final ZkDatagramKeys zk; // null: keys from the options

  private OverlayKeys(DatagramAuth auth, ZkDatagramKeys zk) {
    this.auth = auth;
    this.zk = zk;
  }

  /**
   * The keys of broker {@code name} ({@code routing}: a routing broker, else an edge broker):
   * {@code given} by the options ({@link DatagramKeyOptions#auth()}), else from ZooKeeper.
   */
  static OverlayKeys of(
      DatagramAuth given,
      boolean zookeeperAuth,
      CuratorFramework client,
      boolean routing,
      String name)
      throws Exception {
    if (given != null || !zookeeperAuth) {
      return new OverlayKeys(given, null);
    }
    ZkDatagramKeys zk = ZkDatagramKeys.start(client, routing, name);
    return new OverlayKeys(zk.auth(), zk);
  }

  /** Null when there are none: the broker then refuses to start with the reason. */
  DatagramAuth auth() {
    return auth;
  }

  /** The broker's counters and the keys': rotations seen, datagrams under a non-signing key. */
  Supplier<Map<String, Long>> counters(Supplier<Map<String, Long>> broker) {
    return () -> {
      Map<String, Long> m = new LinkedHashMap<>(broker.get());
      if (auth != null && auth.secure()) {
        m.put("datagrams_other_key", auth.openedUnderOtherKey());
      }
      if (zk != null) {
        m.putAll(zk.counters());
      }
      return m;
    };
  }

  /**
   * {@code broker}, and the key watch closed before it (the broker closes the ZooKeeper client).
   */
  Closeable around(Closeable broker) {
    if (zk == null) {
      return broker;
    }
    return () -> {
      zk.close();
      broker.close();
    };
  }

  /** Stops watching the key znode when the broker failed to start ({@code keys}: null if none). */
  static void abandon(OverlayKeys keys) {
    if (keys != null && keys.zk != null) {
      keys.zk.close();
    }
  }
}
