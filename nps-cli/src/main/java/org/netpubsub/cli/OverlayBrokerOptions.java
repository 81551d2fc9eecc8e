package org.netpubsub.cli;

import java.nio.file.Path;
import java.time.Duration;
import org.apache.curator.framework.CuratorFramework;
import org.netpubsub.content.Durations;
import picocli.CommandLine.Option;

/** The options both overlay brokers share: their ZooKeeper session and the counters' interval. */
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
        ZkAuthFile.read(zookeeperAuth));
  }
}
