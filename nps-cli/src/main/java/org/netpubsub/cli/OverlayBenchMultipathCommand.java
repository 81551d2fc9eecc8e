package org.netpubsub.cli;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.content.Durations;
import org.netpubsub.edge.link.LinkProfile;
import org.netpubsub.edge.overlay.EmbeddedZooKeeper;
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
    Path dir = Files.createTempDirectory("nps-fig7");
    PrintWriter out = spec.commandLine().getOut();
    try (EmbeddedZooKeeper zk =
            EmbeddedZooKeeper.start(new InetSocketAddress("127.0.0.1", 0), dir.resolve("zk"), 100);
        MultipathExperiment x = new MultipathExperiment(zk.connectString(), dir)) {
      for (int c = 0; c < 8; c++) {
        LinkProfile l1 = (c & 4) == 0 ? pa : pb;
        LinkProfile l2 = (c & 2) == 0 ? pa : pb;
        LinkProfile l3 = (c & 1) == 0 ? pa : pb;
        String links =
            ((c & 4) == 0 ? "A" : "B") + ((c & 2) == 0 ? "A" : "B") + ((c & 1) == 0 ? "A" : "B");
        for (boolean multi : new boolean[] {false, true}) {
          if (!multi && (c & 1) == 1) {
            continue; // L3 does not matter on the single path: case 2k+1 = case 2k
          }
          MultipathExperiment.Outcome o =
              x.run(
                  l1,
                  l2,
                  l3,
                  multi,
                  messages,
                  Durations.parse(interval, "--interval", "ms").toMillis(),
                  c * 2L + (multi ? 1 : 0));
          Map<String, Object> r = new LinkedHashMap<>();
          r.put("kind", "overlay-multipath");
          r.put("case", c + 1);
          r.put("links", links);
          r.put("path", multi ? "multi" : "single");
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
                c + 1,
                links,
                multi ? "multi" : "single",
                o.delivered(),
                o.sent(),
                o.avgMs(),
                o.p99Ms(),
                o.maxMs());
            out.flush();
          }
        }
      }
    }
    return 0;
  }
}
