package org.netpubsub.edge.overlay;

import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/** The Curator client every overlay broker uses; the session timeout bounds failover time. */
public final class Zk {
  private Zk() {}

  /** A started client of {@code connect} ({@code host:port,...[/chroot]}). */
  public static CuratorFramework client(String connect, Duration sessionTimeout) {
    if (connect == null || connect.isBlank()) {
      throw new IllegalArgumentException("--zookeeper needs HOST:PORT[,HOST:PORT...]");
    }
    CuratorFramework c =
        CuratorFrameworkFactory.builder()
            .connectString(connect)
            .sessionTimeoutMs((int) sessionTimeout.toMillis())
            .connectionTimeoutMs((int) Math.max(1000, sessionTimeout.toMillis()))
            .retryPolicy(new ExponentialBackoffRetry(50, 10, 1000))
            .build();
    c.start();
    return c;
  }
}
