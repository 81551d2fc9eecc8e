package org.netpubsub.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code --progress DURATION} of the long-running itch commands, with its deprecated alias. */
final class ProgressOptions {
  @Option(
      names = "--progress",
      paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "Progress on stderr this often (default: ${DEFAULT-VALUE}; 0: none).")
  Duration progress = Duration.ofSeconds(1);

  @Option(
      names = "--progress-ms",
      paramLabel = "MS",
      description =
          "Deprecated alias of --progress, in milliseconds (removed in the release after 0.1).")
  Long progressMs;

  long millis() {
    return progressMs != null ? progressMs : progress.toMillis();
  }
}
