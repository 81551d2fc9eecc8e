package org.netpubsub.cli;

import java.time.Duration;
import java.util.List;
import org.netpubsub.bench.controller.NbiBenchmark;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.nbi.ControllerApp;
import picocli.CommandLine.Option;

/** How `nps controller` forwards unicast: routed ahead of traffic, or reactively by bus apps. */
final class ForwardingOptions {
  @Option(
      names = "--forwarding",
      defaultValue = "routed",
      paramLabel = "MODE",
      description =
          "routed: shortest-path routes to every known host, installed ahead of traffic;"
              + " reactive: table misses go to the controller and the --apps forward them"
              + " (a learning switch, as in the EMD measurements) (default: ${DEFAULT-VALUE}).")
  String forwarding;

  @Option(
      names = "--apps",
      defaultValue = "simple",
      paramLabel = "SPEC",
      description =
          "With --forwarding reactive: the bus apps, simple (the learning switch) or shortest"
              + " (shortest paths to known hosts) plus N redundant apps as in simple+3red"
              + " (default: ${DEFAULT-VALUE}).")
  String apps;

  @Option(
      names = "--nbi-topics",
      defaultValue = "fields",
      paramLabel = "KIND",
      description =
          "With --forwarding reactive: the apps' topics as OpenFlow match fields or as"
              + " protocol-independent byte windows (bytes) (default: ${DEFAULT-VALUE}).")
  String topics;

  NetworkController.Forwarding mode() {
    return switch (forwarding) {
      case "routed" -> NetworkController.Forwarding.ROUTED;
      case "reactive" -> NetworkController.Forwarding.REACTIVE;
      default ->
          throw new IllegalArgumentException(
              "--forwarding must be routed or reactive, not '" + forwarding + "'");
    };
  }

  /** The bus apps: none when routed. */
  List<ControllerApp> busApps() {
    if (mode() == NetworkController.Forwarding.ROUTED) {
      if (!apps.equals("simple") || !topics.equals("fields")) {
        throw new IllegalArgumentException("--apps and --nbi-topics need --forwarding reactive");
      }
      return List.of();
    }
    NbiBenchmark.TopicKind kind =
        switch (topics) {
          case "fields" -> NbiBenchmark.TopicKind.FIELDS;
          case "bytes" -> NbiBenchmark.TopicKind.BYTES;
          default ->
              throw new IllegalArgumentException(
                  "--nbi-topics must be fields or bytes, not '" + topics + "'");
        };
    return NbiBenchmark.apps(apps, 0, Duration.ZERO, kind);
  }
}
