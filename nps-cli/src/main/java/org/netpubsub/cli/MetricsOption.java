package org.netpubsub.cli;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.netpubsub.http.HttpMetrics;
import org.netpubsub.http.RestServer;
import picocli.CommandLine.Option;

/**
 * {@code --metrics ADDR:PORT} of the processes without a REST port (the edge agent, the overlay
 * brokers): a small nps-http server with {@code GET /metrics}, {@code /health/live} and {@code
 * /health/ready} (docs/operations.md).
 */
final class MetricsOption {
  @Option(
      names = "--metrics",
      paramLabel = "ADDR:PORT",
      description =
          "Serve GET /metrics (Prometheus text), /health/live and /health/ready on this address"
              + " (docs/operations.md; default: none).")
  String metrics;

  /**
   * The server, or null without {@code --metrics}. {@code bind} registers the process's meters and
   * returns what to run before each scrape; {@code ready} is the one readiness check, {@code
   * readyCheck} its name (null: always ready once serving). A taken port is a one-line failure.
   */
  RestServer start(
      String server,
      Function<MeterRegistry, Runnable> bind,
      String readyCheck,
      BooleanSupplier ready) {
    if (metrics == null) {
      return null;
    }
    PrometheusMeterRegistry registry = HttpMetrics.newRegistry();
    RestServer.Builder b =
        RestServer.builder(server, registry)
            .address(ControllerCommand.hostPort(metrics, "--metrics"))
            .onScrape(bind.apply(registry));
    if (readyCheck != null) {
      b.ready(readyCheck, ready);
    }
    try {
      return b.start();
    } catch (IOException e) {
      throw CommandFailure.io(e);
    }
  }
}
