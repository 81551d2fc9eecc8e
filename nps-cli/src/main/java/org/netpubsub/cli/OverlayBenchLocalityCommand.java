package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.bench.overlay.LocalityExperiment;
import org.netpubsub.content.Durations;
import org.netpubsub.edge.link.LinkProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nps overlay bench-locality}: latency vs data locality (Figure 5). */
@Command(
    name = "bench-locality",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs the paper's data-locality experiment (Figure 5) on this machine: several sites, each"
          + " publishing --topics topics of which a fraction is subscribed locally, the rest in"
          + " another site across the emulated WAN. Needs /usr/sbin/mosquitto."
    })
final class OverlayBenchLocalityCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Option(
      names = "--sites",
      defaultValue = "3",
      paramLabel = "N",
      description = "Sites, each with an edge broker (default: ${DEFAULT-VALUE}).")
  int sites;

  @Option(
      names = "--routing-brokers",
      defaultValue = "2",
      split = ",",
      paramLabel = "N,...",
      description =
          "Routing brokers; several values run each (Figures 6b, 6e: latency and relay CPU per"
              + " broker vs their number; default: ${DEFAULT-VALUE}).")
  List<Integer> brokerCounts;

  @Option(names = "--topics", defaultValue = "20", paramLabel = "N", description = "Per site.")
  int topics;

  @Option(
      names = "--wan",
      defaultValue = "delay=40ms",
      paramLabel = "SPEC",
      description = "Every overlay link (default: ${DEFAULT-VALUE}).")
  String wan;

  @Option(
      names = "--locality",
      defaultValue = "0,0.25,0.5,0.75,1",
      split = ",",
      paramLabel = "F,...",
      description =
          "Shares of each site's subscribers that want only local topics; one run per value"
              + " (default: ${DEFAULT-VALUE}).")
  List<Double> localities;

  @Option(
      names = "--rounds",
      defaultValue = "20",
      paramLabel = "N",
      description = "Messages per topic and run (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--interval",
      defaultValue = "50ms",
      paramLabel = "DURATION",
      description =
          "Between two messages of a topic (default: ${DEFAULT-VALUE}; a bare number is"
              + " milliseconds, deprecated).")
  String interval;

  @Override
  public Integer call() throws Exception {
    LinkProfile link = LinkProfile.parse(wan);
    if (sites < 2
        || brokerCounts.stream().anyMatch(b -> b < 1)
        || topics < 1
        || localities.stream().anyMatch(f -> f < 0 || f > 1)) {
      throw new IllegalArgumentException(
          "--sites >= 2, --routing-brokers >= 1, --topics >= 1, --locality in [0, 1]");
    }
    long intervalMs = Durations.parse(interval, "--interval", "ms").toMillis();
    PrintWriter out = spec.commandLine().getOut();
    LocalityExperiment.figure5(
        sites,
        brokerCounts,
        topics,
        link,
        localities,
        rounds,
        intervalMs,
        (brokers, o) -> {
          if (json.enabled()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("kind", "overlay-locality");
            r.put("locality", o.locality());
            r.put("sites", sites);
            r.put("routing_brokers", brokers);
            r.put("topics_per_site", topics);
            r.put("delivered", o.delivered());
            r.put("expected", o.expected());
            r.put("avg_ms", o.avgMs());
            r.put("p99_ms", o.p99Ms());
            r.put("relay_cpu_ms_per_broker", o.relayCpuMsPerBroker());
            r.put("edge_cpu_ms_per_edge", o.edgeCpuMsPerEdge());
            JsonOutput.printLine(out, r);
          } else {
            out.printf(
                "%d routing brokers, locality %.2f: delivered %d/%d, avg %.1f ms, p99 %.1f ms,"
                    + " relay CPU %.1f ms per broker%n",
                brokers,
                o.locality(),
                o.delivered(),
                o.expected(),
                o.avgMs(),
                o.p99Ms(),
                o.relayCpuMsPerBroker());
            out.flush();
          }
        });
    return 0;
  }
}
