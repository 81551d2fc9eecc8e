package org.netpubsub.cli;

import java.time.Duration;
import java.util.Optional;
import org.netpubsub.controller.multicast.LinkLoadMonitor;
import picocli.CommandLine.Option;

/** The options of multicast traffic engineering in `nps controller` (off unless --te-link-mbps). */
final class TrafficEngineeringOptions {
  @Option(
      names = "--te-link-mbps",
      paramLabel = "MBPS",
      description =
          "Turns on traffic engineering for multicast groups: every link's capacity in Mbit/s;"
              + " trees move off links whose measured utilization reaches --te-threshold.")
  Double linkMbps;

  @Option(
      names = "--te-threshold",
      defaultValue = "0.65",
      paramLabel = "SHARE",
      description = "Utilization at which a link is avoided (default: ${DEFAULT-VALUE}).")
  double threshold;

  @Option(
      names = "--te-release",
      defaultValue = "0.5",
      paramLabel = "SHARE",
      description =
          "Utilization below which an avoided link is used again (default: ${DEFAULT-VALUE}).")
  double release;

  @Option(
      names = "--te-hold",
      defaultValue = "10s",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Least time a link stays avoided (default: ${DEFAULT-VALUE}).")
  Duration hold;

  @Option(
      names = "--te-hold-ms",
      paramLabel = "MS",
      description =
          "Deprecated alias of --te-hold, in milliseconds (removed in the release after 0.1).")
  Long holdMs;

  @Option(
      names = "--te-interval",
      defaultValue = "1s",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "How often port counters are sampled (default: ${DEFAULT-VALUE}).")
  Duration interval;

  @Option(
      names = "--te-interval-ms",
      paramLabel = "MS",
      description =
          "Deprecated alias of --te-interval, in milliseconds (removed in the release after 0.1).")
  Long intervalMs;

  /** The monitor's settings, if traffic engineering is on. */
  Optional<LinkLoadMonitor.Settings> settings() {
    if (linkMbps == null) {
      return Optional.empty();
    }
    Duration h = holdMs != null ? Duration.ofMillis(holdMs) : hold;
    Duration i = intervalMs != null ? Duration.ofMillis(intervalMs) : interval;
    if (!(linkMbps > 0) || i.toMillis() < 100 || h.isNegative()) {
      throw new IllegalArgumentException(
          "--te-link-mbps must be positive, --te-interval at least 100ms, --te-hold >= 0");
    }
    if (!(threshold > 0 && threshold <= 1 && release >= 0 && release <= threshold)) {
      throw new IllegalArgumentException(
          "need 0 <= --te-release <= --te-threshold <= 1 and --te-threshold > 0");
    }
    return Optional.of(new LinkLoadMonitor.Settings(linkMbps * 1e6, threshold, release, h, i));
  }
}
