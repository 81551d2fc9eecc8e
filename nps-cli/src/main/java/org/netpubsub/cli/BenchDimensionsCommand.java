package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.bench.controller.MachineInfo;
import org.netpubsub.bench.index.DimensionsSweep;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.workload.IntSpace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps bench dimensions}: the false-positive rate when only the k best dimensions are indexed
 * (PLEROMA Figures 8e and 8f), on Zipf workloads whose first attributes vary little.
 */
@Command(
    name = "dimensions",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "False-positive rate vs the number of indexed dimensions (PLEROMA Fig. 8e/8f). One Zipf"
          + " workload per --restricted value r: its first r attributes stray only --narrow"
          + " (a fraction of the domain) from the hotspot, so events match most subscriptions"
          + " along them: they filter little. The dimensions are ranked by DimensionSelector (variance of the"
          + " per-dimension match counts); for k = 1..attributes the best k are indexed with the"
          + " same dz length, so fewer dimensions get more bits each.",
      "benefit = 1 - fpr(k) / fpr(all attributes): the share of false positives removed."
    })
final class BenchDimensionsCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Mixin FalsePositiveOptions options;

  @Spec CommandSpec spec;

  @Option(
      names = "--attributes",
      defaultValue = "10",
      paramLabel = "N",
      description = "Int attributes of domain [0, 1023] (default: ${DEFAULT-VALUE}).")
  int attributes;

  @Option(
      names = "--restricted",
      split = ",",
      defaultValue = "4,6,8",
      paramLabel = "R",
      description = "Low-variance attributes per workload (default: ${DEFAULT-VALUE}).")
  List<Integer> restricted;

  @Option(
      names = "--narrow",
      defaultValue = "0.01",
      paramLabel = "F",
      description = "Spread of a restricted attribute, in [0, 1] (default: ${DEFAULT-VALUE}).")
  double narrow;

  @Option(
      names = "--hotspots",
      defaultValue = "1",
      paramLabel = "H",
      description = "Zipf hotspots, 1..8 (default: ${DEFAULT-VALUE}).")
  int hotspots;

  @Option(
      names = "--constrain-prob",
      defaultValue = "1",
      paramLabel = "P",
      description =
          "Probability that a filter constrains an attribute (default: ${DEFAULT-VALUE}).")
  double constrainProb;

  @Option(
      names = "--length",
      defaultValue = "24",
      paramLabel = "L",
      description = "dz length in bits (default: ${DEFAULT-VALUE}).")
  int length;

  @Option(
      names = "--subscriptions",
      defaultValue = "2000",
      paramLabel = "N",
      description = "Subscriptions, divided equally among the hosts (default: ${DEFAULT-VALUE}).")
  int subscriptions;

  @Option(
      names = "--layout",
      defaultValue = "round-robin",
      paramLabel = "LAYOUT",
      description =
          "round-robin: only the k best dimensions, interleaved; learned: also a layout learned"
              + " from the first 500 subscriptions (`nps index design`) over every attribute at the"
              + " same length, compared with them (default: ${DEFAULT-VALUE}).")
  String layout;

  @Override
  public Integer call() {
    if (!layout.equals("round-robin") && !layout.equals("learned")) {
      throw new IllegalArgumentException(
          "--layout must be round-robin or learned, not '" + layout + "'");
    }
    if (restricted.stream().anyMatch(r -> r < 0 || r > attributes)) {
      throw new IllegalArgumentException("--restricted values must be in [0, --attributes]");
    }
    options.check();
    if (subscriptions < 1) {
      throw new IllegalArgumentException("--subscriptions must be positive");
    }
    IntSpace space =
        new IntSpace(
            attributes, IntSpace.DEFAULT_DOMAIN, IntSpace.DEFAULT_MAX_WIDTH, constrainProb);
    if (length < 1 || length > Dz.MAX_LENGTH) {
      throw new IllegalArgumentException("--length must be in 1.." + Dz.MAX_LENGTH);
    }
    List<Map<String, Object>> workloads =
        DimensionsSweep.run(
            new DimensionsSweep.Settings(
                space,
                attributes,
                restricted,
                narrow,
                hotspots,
                length,
                subscriptions,
                layout.equals("learned"),
                options.seed,
                options.events,
                options.hosts,
                options.maxCells),
            spec.commandLine().getErr());
    print(workloads);
    return 0;
  }

  private void print(List<Map<String, Object>> workloads) {
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("machine", MachineInfo.describe());
      m.put("attributes", attributes);
      m.put("narrow", narrow);
      m.put("hotspots", hotspots);
      m.put("constrain_prob", constrainProb);
      m.put("length", length);
      m.put("subscriptions", subscriptions);
      options.describe(m);
      m.put("workloads", workloads);
      JsonOutput.printLine(out, m);
      return;
    }
    DimensionsSweep.print(workloads, out);
  }
}
