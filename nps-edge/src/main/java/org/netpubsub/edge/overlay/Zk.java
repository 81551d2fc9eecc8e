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
    return client(connect, sessionTimeout, null);
  }

  /**
   * A started client; with {@code auth} (null: none) its session is authenticated and every znode
   * it creates is readable and writable by those credentials only ({@link ZkAuth}).
   */
  public static CuratorFramework client(String connect, Duration sessionTimeout, ZkAuth auth) {
    if (connect == null || connect.isBlank()) {
      throw new IllegalArgumentException("--zookeeper needs HOST:PORT[,HOST:PORT...]");
    }
    CuratorFrameworkFactory.Builder b = CuratorFrameworkFactory.builder();
    if (auth != null) {
      auth.applyTo(b);
    }
    CuratorFramework c =
        b.connectString(connect)
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
    return connected(connect, sessionTimeout, wait, null);
  }

  /**
   * {@link #connected(String, Duration, Duration)} with credentials ({@code auth}: null for none).
   */
  public static CuratorFramework connected(
      String connect, Duration sessionTimeout, Duration wait, ZkAuth auth)
      throws java.io.IOException, InterruptedException {
    CuratorFramework c = client(connect, sessionTimeout, auth);
    if (!c.blockUntilConnected((int) wait.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
      c.close();
      throw new java.io.IOException(
          "cannot reach ZooKeeper at "
              + connect
              + " within "
              + (wait.toMillis() % 1000 == 0 ? wait.toSeconds() + " s" : wait.toMillis() + " ms"));
    }
    return c;
  }
}
