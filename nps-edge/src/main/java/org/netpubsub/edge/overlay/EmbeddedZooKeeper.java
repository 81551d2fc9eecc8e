package org.netpubsub.edge.overlay;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.netpubsub.content.address.Ipv6Address;

/**
 * A standalone ZooKeeper server in this process ({@code nps overlay zookeeper}): the overlay's
 * default coordination service. Empty topic containers are reaped every 10 s (ZooKeeper's default
 * is 60 s) unless {@code znode.container.checkIntervalMs} says otherwise; the {@code mntr}, {@code
 * ruok}, {@code stat} and {@code srst} four-letter words are on for monitoring.
 */
public final class EmbeddedZooKeeper implements Closeable {
  // held: java.util.logging keeps loggers weakly; ZooKeeper's INFO lines would drown ours
  private static final java.util.logging.Logger ZK_LOG = quiet();

  private static java.util.logging.Logger quiet() {
    java.util.logging.Logger l = java.util.logging.Logger.getLogger("org.apache.zookeeper");
    l.setLevel(java.util.logging.Level.WARNING);
    return l;
  }

  private final Main main = new Main();
  private final Thread thread;
  private volatile InetSocketAddress address;
  private volatile Throwable failure;

  private static final class Main extends ZooKeeperServerMain {
    final java.util.concurrent.CountDownLatch started = new java.util.concurrent.CountDownLatch(1);

    @Override
    protected void serverStarted() {
      started.countDown();
    }

    void stop() {
      shutdown();
    }
  }

  private EmbeddedZooKeeper(ServerConfig config, InetSocketAddress address) {
    this.address = address;
    this.thread =
        Thread.ofPlatform()
            .daemon()
            .name("nps-zookeeper")
            .unstarted(
                () -> {
                  try {
                    main.runFromConfig(config);
                  } catch (Exception | Error e) {
                    failure = e;
                  }
                });
  }

  /** Starts on {@code listen} (port 0: any free one) with snapshots and logs in {@code data}. */
  public static EmbeddedZooKeeper start(InetSocketAddress listen, Path data, int tickTimeMs)
      throws IOException {
    return start(listen, data, tickTimeMs, true);
  }

  /**
   * As above; {@code forceSync} false skips the fsync of the transaction log before each answer
   * (ZooKeeper's {@code forceSync=no}): faster, but an acknowledged update can be lost in a power
   * failure. For experiments; it applies to the process (ZooKeeper reads it as a system property).
   */
  public static EmbeddedZooKeeper start(
      InetSocketAddress listen, Path data, int tickTimeMs, boolean forceSync) throws IOException {
    if (!forceSync) {
      System.setProperty("zookeeper.forceSync", "no");
    }
    System.setProperty(
        "znode.container.checkIntervalMs",
        System.getProperty("znode.container.checkIntervalMs", "10000"));
    System.setProperty(
        "zookeeper.4lw.commands.whitelist",
        System.getProperty("zookeeper.4lw.commands.whitelist", "mntr,ruok,stat,srst"));
    System.setProperty("zookeeper.admin.enableServer", "false");
    Files.createDirectories(data);
    Properties p = new Properties();
    p.setProperty("dataDir", data.toAbsolutePath().toString());
    p.setProperty("clientPortAddress", Ipv6Address.formatWithZone(listen.getAddress()));
    p.setProperty("clientPort", String.valueOf(listen.getPort()));
    p.setProperty("tickTime", String.valueOf(tickTimeMs));
    p.setProperty("maxClientCnxns", "0");
    QuorumPeerConfig q = new QuorumPeerConfig();
    try {
      q.parseProperties(p);
    } catch (QuorumPeerConfig.ConfigException e) {
      throw new IllegalArgumentException("ZooKeeper configuration: " + e.getMessage(), e);
    }
    ServerConfig config = new ServerConfig();
    config.readFrom(q);
    EmbeddedZooKeeper zk = new EmbeddedZooKeeper(config, listen);
    zk.thread.start();
    try {
      // serverStarted() is called once the server serves, or never if it fails
      while (!zk.main.started.await(50, java.util.concurrent.TimeUnit.MILLISECONDS)) {
        if (zk.failure != null || !zk.thread.isAlive()) {
          throw new IOException(
              "ZooKeeper did not start on "
                  + ZnodeData.address(listen)
                  + (zk.failure != null ? ": " + zk.failure.getMessage() : ""));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      zk.close();
      throw new IOException("interrupted while ZooKeeper started");
    }
    zk.address = new InetSocketAddress(listen.getAddress(), zk.main.getClientPort());
    return zk;
  }

  /** {@code host:port} for {@code --zookeeper}. */
  public String connectString() {
    return ZnodeData.address(address);
  }

  @Override
  public void close() {
    main.stop();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
