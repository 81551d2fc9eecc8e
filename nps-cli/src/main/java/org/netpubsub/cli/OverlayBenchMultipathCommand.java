package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.bench.overlay.MultipathExperiment;
import org.netpubsub.content.Durations;
import org.netpubsub.edge.link.LinkProfile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code nps overlay bench-multipath}: Table 1's eight link cases, single vs multi-path. */
@Command(
    name = "bench-multipath",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs the paper's deadline-aware experiment (Table 1, Figure 7) on this machine with the"
          + " overlay's WAN emulation: for each case of links L1, L2, L3 (A or B), the latency of"
          + " QoS 1 messages over the single path (edge, routing broker, edge) and with the direct"
          + " path added. Needs /usr/sbin/mosquitto."
    })
final class OverlayBenchMultipathCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Option(
      names = "--a",
      defaultValue = "delay=30ms",
      paramLabel = "SPEC",
      description = "Link class A (default: ${DEFAULT-VALUE}).")
  String a;

  @Option(
      names = "--b",
      defaultValue = "delay=250ms,loss=1%",
      paramLabel = "SPEC",
      description = "Link class B (default: ${DEFAULT-VALUE}).")
  String b;

  @Option(
      names = "--messages",
      defaultValue = "150",
      paramLabel = "N",
      description = "Messages per run (default: ${DEFAULT-VALUE}).")
  int messages;

  @Option(
      names = "--interval",
      defaultValue = "20ms",
      paramLabel = "DURATION",
      description =
          "Between two messages of a topic (default: ${DEFAULT-VALUE}; a bare number is"
              + " milliseconds, deprecated).")
  String interval;

  @Override
  public Integer call() throws Exception {
    LinkProfile pa = LinkProfile.parse(a);
    LinkProfile pb = LinkProfile.parse(b);
    long intervalMs = Durations.parse(interval, "--interval", "ms").toMillis();
    PrintWriter out = spec.commandLine().getOut();
    MultipathExperiment.figure7(
        pa,
        pb,
        messages,
        intervalMs,
        k -> {
          MultipathExperiment.Outcome o = k.outcome();
          Map<String, Object> r = new LinkedHashMap<>();
          r.put("kind", "overlay-multipath");
          r.put("case", k.number());
          r.put("links", k.links());
          r.put("path", k.multi() ? "multi" : "single");
          r.put("sent", o.sent());
          r.put("delivered", o.delivered());
          r.put("avg_ms", o.avgMs());
          r.put("p99_ms", o.p99Ms());
          r.put("max_ms", o.maxMs());
          if (json.enabled()) {
            JsonOutput.printLine(out, r);
          } else {
            out.printf(
                "case %d %s %-6s delivered %d/%d avg %.1f ms p99 %.1f ms max %.1f ms%n",
                k.number(),
                k.links(),
                k.multi() ? "multi" : "single",
                o.delivered(),
                o.sent(),
                o.avgMs(),
                o.p99Ms(),
                o.maxMs());
            out.flush();
          }
        });
    return 0;
  }
}
