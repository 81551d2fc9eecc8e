package org.netpubsub.cli;

import picocli.CommandLine.Option;

/**
 * The options every long-running server command mixes in: logging, and a YAML file of its long
 * options ({@link ConfigFile}, which the launcher expands before parsing).
 */
final class ServerOptions {
  @Option(
      names = "--log-level",
      defaultValue = "info",
      paramLabel = "LEVEL",
      description =
          "trace, debug, info, warn, error or off (default: ${DEFAULT-VALUE}); ZooKeeper, Curator,"
              + " Jetty and Netty log warnings and worse only.")
  String logLevel;

  @Option(
      names = "--log-format",
      defaultValue = "text",
      paramLabel = "FORMAT",
      description =
          "text (one line per event: ISO-8601 time, level, thread, logger, message) or json (the"
              + " same fields as one JSON object per line) (default: ${DEFAULT-VALUE}).")
  String logFormat;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "A YAML file of this command's long options without their dashes (listen: ...);"
              + " options given on the command line win.")
  String config;

  /** Applies the logging options; the launcher calls it before the command runs. */
  void applyLogging() {
    Logging.configure(logLevel, logFormat);
  }
}
