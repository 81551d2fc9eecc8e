package org.netpubsub.cli;

import java.time.Duration;
import org.netpubsub.content.Durations;
import picocli.CommandLine.Option;

/**
 * {@code --zookeeper-timeout} of the overlay commands that connect to ZooKeeper (the brokers,
 * {@code overlay keys rotate}): how long to wait for the first connection before the one-line
 * failure (exit 1).
 */
final class ZooKeeperTimeoutOption {
  @Option(
      names = "--zookeeper-timeout",
      defaultValue = "10s",
      paramLabel = "DURATION",
      description =
          "How long to wait for the first connection to ZooKeeper before exiting 1"
              + " (default: ${DEFAULT-VALUE}).")
  String zookeeperTimeout;

  /** The wait: positive, the error naming the option. */
  Duration duration() {
    return Durations.positive(zookeeperTimeout, "--zookeeper-timeout");
  }
}
