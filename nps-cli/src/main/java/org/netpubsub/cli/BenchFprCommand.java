package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.bench.controller.MachineInfo;
import org.netpubsub.bench.index.FprSweep;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps bench fpr}: PLEROMA's false-positive rate against the dz length for several numbers of
 * subscriptions (paper Figure 8d), on the uniform and Zipf workloads.
 */
@Command(
    name = "fpr",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "False-positive rate vs dz length (PLEROMA Fig. 8d): the share of the events the subscriber"
          + " hosts receive that none of the receiving host's subscriptions matches, when every"
          + " subscription is covered by at most --max-cells cells of an index of L bits and one"
          + " publisher advertises everything. Each host receives one copy of an event (its"
          + " agent demultiplexes); the count equals what the configurator's flows deliver.",
      "Subscriptions come from one seeded workload per model; n subscriptions are its first n."
    })
final class BenchFprCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Mixin FalsePositiveOptions options;

  @Spec CommandSpec spec;

  @Option(
      names = "--models",
      split = ",",
      defaultValue = "uniform,zipf",
      paramLabel = "M",
      description =
          "uniform, zipf (int attributes), topics (MQTT-style topics, Zipf popularity) and/or"
              + " itch (Camus's rich ITCH, stock a string) (default: ${DEFAULT-VALUE}).")
  List<String> models;

  @Option(
      names = "--layout",
      split = ",",
      defaultValue = "round-robin",
      paramLabel = "LAYOUT",
      description =
          "round-robin (PLEROMA's interleaving) and/or learned (`nps index design` on the first"
              + " --design-subscriptions subscriptions and the events) (default: ${DEFAULT-VALUE}).")
  List<String> layouts;

  @Option(
      names = "--design-subscriptions",
      defaultValue = "0",
      paramLabel = "N",
      description =
          "Subscriptions a learned layout is designed from, the first N; 0 = one host's worth"
              + " (subscriptions / hosts) but at least 500 (default: ${DEFAULT-VALUE}).")
  int designSubscriptions;

  @Option(
      names = "--subscriptions",
      split = ",",
      defaultValue = "1000,2000,4000,8000,16000",
      paramLabel = "N",
      description = "Numbers of subscriptions (default: ${DEFAULT-VALUE}).")
  List<Integer> subscriptions;

  @Option(
      names = "--lengths",
      split = ",",
      defaultValue = "4,8,12,16,20,24,28,32",
      paramLabel = "L",
      description = "dz lengths in bits (default: ${DEFAULT-VALUE}).")
  List<Integer> lengths;

  @Option(
      names = "--max-flows",
      split = ",",
      defaultValue = "0",
      paramLabel = "F",
      description =
          "Flow budgets per edge switch: each host's union of covers is merged down to at most F"
              + " cells, letting in the fewest events of an independent sample (the"
              + " --flow-sample events after the measured ones); 0 = no budget (default:"
              + " ${DEFAULT-VALUE}).")
  List<Integer> maxFlows;

  @Option(
      names = "--flow-sample",
      defaultValue = "2000",
      paramLabel = "N",
      description = "Events that weigh --max-flows merges (default: ${DEFAULT-VALUE}).")
  int flowSample;

  @Option(
      names = "--held-out-design",
      description =
          "Design a learned layout on as many events drawn after the flow sample, not on the"
              + " measured events (default: the measured events).")
  boolean heldOutDesign;

  @Option(
      names = "--attributes",
      defaultValue = "4",
      paramLabel = "N",
      description = "Int attributes of domain [0, 1023], all indexed (default: ${DEFAULT-VALUE}).")
  int attributes;

  @Override
  public Integer call() {
    check();
    List<Map<String, Object>> rows =
        FprSweep.run(
            new FprSweep.Settings(
                models,
                layouts,
                designSubscriptions,
                subscriptions,
                lengths,
                attributes,
                options.seed,
                options.events,
                options.hosts,
                options.maxCells,
                maxFlows,
                flowSample,
                heldOutDesign),
            spec.commandLine().getErr());
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("machine", MachineInfo.describe());
      options.describe(m);
      m.put("attributes", attributes);
      m.put("layouts", layouts);
      m.put("max_flows", maxFlows);
      m.put("flow_sample", flowSample);
      m.put("design_events", heldOutDesign ? "held-out" : "measured");
      m.put("results", rows);
      JsonOutput.printLine(out, m);
    } else {
      FprSweep.print(rows, out);
    }
    return 0;
  }

  private void check() {
    for (String m : models) {
      if (!List.of("uniform", "zipf", "topics", "itch").contains(m)) {
        throw new IllegalArgumentException(
            "--models takes uniform and zipf (int attributes), topics and itch, not '" + m + "'");
      }
    }
    for (String l : layouts) {
      if (!l.equals("round-robin") && !l.equals("learned")) {
        throw new IllegalArgumentException(
            "--layout takes round-robin and learned, not '" + l + "'");
      }
    }
    if (designSubscriptions < 0) {
      throw new IllegalArgumentException(
          "--design-subscriptions must be 0 (one host's worth) or positive");
    }
    if (maxFlows.stream().anyMatch(f -> f < 0)) {
      throw new IllegalArgumentException("--max-flows must be 0 (no budget) or positive");
    }
    if (flowSample < 1) {
      throw new IllegalArgumentException("--flow-sample must be positive");
    }
    if (subscriptions.stream().anyMatch(n -> n < 1)) {
      throw new IllegalArgumentException("--subscriptions must be positive");
    }
    options.check();
  }
}
