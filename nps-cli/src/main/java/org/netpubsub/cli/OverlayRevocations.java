package org.netpubsub.cli;

import java.io.Closeable;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.edge.overlay.RevokedUnion;
import org.netpubsub.edge.overlay.ZkRevokedEdges;

/**
 * The edges an overlay broker refuses (docs/security-revocation.md, "Revocation in the overlay"):
 * its {@code --revoked-edges} file, watched, and with {@code --zookeeper-auth} the overlay's
 * revoked-edges znode, watched; the broker refuses their union. Started before the broker, so a bad
 * source stops the start, and attached to it once it runs.
 */
final class OverlayRevocations implements Closeable {
  private final RevokedUnion union = new RevokedUnion();
  private final AtomicLong handed = new AtomicLong(); // edges the broker refuses now
  private ScheduledExecutorService file; // null without --revoked-edges
  private ZkRevokedEdges zk; // null without --zookeeper-auth

  private OverlayRevocations() {}

  /**
   * Reads {@code revokedEdges} (null: none) and, with {@code zookeeperAuth}, the znode through
   * {@code client}; a bad source is refused with its reason, in one line.
   */
  static OverlayRevocations start(Path revokedEdges, boolean zookeeperAuth, CuratorFramework client)
      throws Exception {
    OverlayRevocations r = new OverlayRevocations();
    try {
      if (revokedEdges != null) {
        r.file = RevokedEdges.watch(revokedEdges, r.union::file);
      }
      if (zookeeperAuth) {
        r.zk = ZkRevokedEdges.start(client, r.union::zookeeper);
      }
    } catch (Exception e) {
      r.close();
      throw e;
    }
    return r;
  }

  /** From now on {@code broker} refuses the union's edges, the current ones first. */
  void attach(Consumer<Set<String>> broker) {
    union.attach(
        s -> {
          broker.accept(s);
          handed.set(s.size());
        });
  }

  /**
   * {@code counters} and, with a source, {@code edges_revoked} (the edges the broker refuses now,
   * both sources; a gauge) and the znode's own ({@code revoked_znode_*}).
   */
  Supplier<Map<String, Long>> counters(Supplier<Map<String, Long>> counters) {
    if (file == null && zk == null) {
      return counters;
    }
    return () -> {
      Map<String, Long> m = new LinkedHashMap<>(counters.get());
      m.put("edges_revoked", handed.get());
      if (zk != null) {
        m.putAll(zk.counters());
      }
      return m;
    };
  }

  /** {@code broker}, closed after these watches (the broker closes the ZooKeeper client). */
  Closeable around(Closeable broker) {
    return () -> {
      close();
      broker.close();
    };
  }

  /** Stops watching; {@code r} may be null (nothing started). */
  static void abandon(OverlayRevocations r) {
    if (r != null) {
      r.close();
    }
  }

  @Override
  public void close() {
    if (file != null) {
      file.shutdownNow();
    }
    if (zk != null) {
      zk.close();
    }
  }
}
