package org.netpubsub.cli;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.content.Durations;
import org.netpubsub.http.RestServer;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options both overlay brokers share: their ZooKeeper session, the counters' interval and
 * {@code --metrics}.
 */
final class OverlayBrokerOptions {
  @Option(
      names = "--zookeeper",
      required = true,
      paramLabel = "HOST:PORT[,...]",
      description = "The ZooKeeper server or ensemble.")
  String zookeeper;

  @Option(
      names = "--session-timeout",
      defaultValue = "2s",
      paramLabel = "DURATION",
      description =
          "ZooKeeper session timeout: how soon a crash is noticed (default: ${DEFAULT-VALUE}).")
  String sessionTimeout;

  @Mixin ZooKeeperTimeoutOption zookeeperTimeout;

  @Option(
      names = "--zookeeper-auth",
      paramLabel = "FILE",
      description =
          "ZooKeeper digest credentials, one line user:password; every znode this broker creates"
              + " is then readable and writable with them only (docs/security.md).")
  Path zookeeperAuth;

  @Option(
      names = "--status-interval",
      defaultValue = "10s",
      paramLabel = "DURATION",
      description =
          "How often to print the counters (default: ${DEFAULT-VALUE}; 0: only at the end).")
  String statusInterval;

  Duration interval() {
    return OverlayRun.interval(statusInterval);
  }

  /** A connected client, or a one-line failure (exit 1). */
  CuratorFramework connect() throws InterruptedException {
    return OverlayRun.zookeeper(
        zookeeper,
        Durations.positive(sessionTimeout, "--session-timeout"),
        zookeeperTimeout.duration(),
        ZkAuthFile.read(zookeeperAuth));
  }

  @Mixin MetricsOption metrics;

  /**
   * The broker and, with {@code --metrics}, its metrics server ({@code leader}: null for an edge
   * broker), closed together; ready while the ZooKeeper session holds. A metrics port in use closes
   * the broker and fails in one line.
   */
  Closeable withMetrics(
      Closeable broker,
      String server,
      CuratorFramework client,
      Supplier<Map<String, Long>> counters,
      BooleanSupplier leader)
      throws IOException {
    RestServer m;
    try {
      m =
          metrics.start(
              server,
              r -> {
                ZooKeeperLatency.trace(r, client);
                return EdgeMeters.overlay(r, counters, leader);
              },
              "zookeeper",
              () -> client.getZookeeperClient().isConnected());
    } catch (RuntimeException e) {
      broker.close();
      throw e;
    }
    if (m == null) {
      return broker;
    }
    return () -> {
      m.close();
      broker.close();
    };
  }
}
