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
            // no dynamic reconfiguration here: the tracker's background reads only fail, each
            // with a logged stack trace, while the ensemble is out of reach
            .ensembleTracker(false)
            .build();
    c.start();
    return c;
  }

  /**
   * A started client that is connected, or {@link java.io.IOException} naming the servers after
   * {@code wait} (a command should fail with a reason, not after the retry policy's whole time).
   */
  public static CuratorFramework connected(String connect, Duration sessionTimeout, Duration wait)
      throws java.io.IOException, InterruptedException {
    CuratorFramework c = client(connect, sessionTimeout);
    if (!c.blockUntilConnected((int) wait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
      c.close();
      throw new java.io.IOException(
          "cannot reach ZooKeeper at " + connect + " within " + wait.toSeconds() + " s");
    }
    return c;
  }
}
