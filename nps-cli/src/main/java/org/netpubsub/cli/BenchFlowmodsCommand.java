package org.netpubsub.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.bench.controller.FlowModBenchmark;
import org.netpubsub.bench.controller.MachineInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nps bench flowmods}: acknowledged flow-mods per second (each batch followed by a barrier,
 * the next batch after its reply) to the simulated switch and to an Open vSwitch bridge.
 */
@Command(
    name = "flowmods",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Acknowledged flow-mods per second over the OpenFlow 1.3 southbound: N flows with distinct"
          + " IPv6 prefixes are added, then deleted, in batches of each size (one barrier per"
          + " batch, the next batch after its reply).",
      "Targets: sim (the simulated switch over TCP) and ovs (a userspace Open vSwitch bridge,"
          + " created and deleted here; needs OVS running and root)."
    })
final class BenchFlowmodsCommand implements Callable<Integer> {
  @Mixin JsonOutput json;

  @Spec CommandSpec spec;

  @Option(
      names = "--target",
      defaultValue = "both",
      paramLabel = "sim|ovs|both",
      description = "What to measure against (default: ${DEFAULT-VALUE}).")
  String target;

  @Option(
      names = "--batches",
      split = ",",
      defaultValue = "1,10,100",
      paramLabel = "B",
      description = "Batch sizes, comma-separated (default: ${DEFAULT-VALUE}).")
  List<Integer> batches;

  @Option(
      names = "--count",
      defaultValue = "2000",
      paramLabel = "N",
      description = "Flows added and deleted per batch size (default: ${DEFAULT-VALUE}).")
  int count;

  @Override
  public Integer call() throws IOException {
    List<FlowModBenchmark.Target> targets =
        switch (target) {
          case "sim" -> List.of(FlowModBenchmark.Target.SIM);
          case "ovs" -> List.of(FlowModBenchmark.Target.OVS);
          case "both" -> List.of(FlowModBenchmark.Target.SIM, FlowModBenchmark.Target.OVS);
          default ->
              throw new IllegalArgumentException(
                  "--target must be sim, ovs or both, not '" + target + "'");
        };
    if (count < 1 || batches.stream().anyMatch(b -> b < 1)) {
      throw new IllegalArgumentException("--count and --batches must be positive");
    }
    List<FlowModBenchmark.Result> results = new ArrayList<>();
    for (FlowModBenchmark.Target t : targets) {
      try {
        results.addAll(FlowModBenchmark.run(t, batches, count));
      } catch (IllegalStateException e) {
        throw new IllegalArgumentException(
            "cannot measure " + t.name().toLowerCase() + ": " + e.getMessage(), e);
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("machine", MachineInfo.describe());
      m.put("count", count);
      m.put("results", results.stream().map(BenchFlowmodsCommand::row).toList());
      JsonOutput.printLine(out, m);
    } else {
      out.print(table(results));
      out.flush();
    }
    return 0;
  }

  static Map<String, Object> row(FlowModBenchmark.Result r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("target", r.target().name().toLowerCase());
    m.put("batch", r.batchSize());
    m.put("flows", r.count());
    m.put("adds_per_second", Math.round(r.addsPerSecond()));
    m.put("deletes_per_second", Math.round(r.deletesPerSecond()));
    m.put("add_seconds", r.add().toNanos() / 1e9);
    m.put("delete_seconds", r.delete().toNanos() / 1e9);
    return m;
  }

  static String table(List<FlowModBenchmark.Result> results) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            "%-6s %6s %7s %14s %14s%n", "target", "batch", "flows", "adds/s", "deletes/s"));
    for (FlowModBenchmark.Result r : results) {
      sb.append(
          String.format(
              "%-6s %6d %7d %14.0f %14.0f%n",
              r.target().name().toLowerCase(),
              r.batchSize(),
              r.count(),
              r.addsPerSecond(),
              r.deletesPerSecond()));
    }
    return sb.toString();
  }
}
