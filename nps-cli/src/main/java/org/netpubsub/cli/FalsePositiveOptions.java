package org.netpubsub.cli;

import java.util.Map;
import picocli.CommandLine.Option;

/** The options {@code nps bench fpr} and {@code nps bench dimensions} share. */
final class FalsePositiveOptions {
  @Option(
      names = "--events",
      defaultValue = "2000",
      paramLabel = "N",
      description = "Events published (default: ${DEFAULT-VALUE}).")
  int events;

  @Option(
      names = "--hosts",
      defaultValue = "8",
      paramLabel = "N",
      description = "Subscriber hosts (default: ${DEFAULT-VALUE}).")
  int hosts;

  @Option(
      names = "--max-cells",
      defaultValue = "64",
      paramLabel = "N",
      description =
          "Cells per subscription, as the controller's option (default: ${DEFAULT-VALUE}).")
  int maxCells;

  @Option(
      names = "--seed",
      defaultValue = "1",
      paramLabel = "N",
      description = "Seed of the workload (default: ${DEFAULT-VALUE}).")
  long seed;

  void check() {
    if (events < 1 || hosts < 1 || maxCells < 1) {
      throw new IllegalArgumentException("--events, --hosts and --max-cells must be positive");
    }
  }

  /** Adds the settings to a JSON report. */
  void describe(Map<String, Object> report) {
    report.put("events", events);
    report.put("hosts", hosts);
    report.put("max_cells", maxCells);
    report.put("seed", seed);
  }
}
