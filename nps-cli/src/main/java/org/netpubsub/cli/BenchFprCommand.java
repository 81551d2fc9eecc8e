package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.IntSpace;
import org.netpubsub.content.workload.UniformModel;
import org.netpubsub.content.workload.WorkloadModel;
import org.netpubsub.content.workload.WorkloadSpec;
import org.netpubsub.content.workload.ZipfModel;
import org.netpubsub.controller.bench.MachineInfo;
import org.netpubsub.network.pleroma.FalsePositiveRate;
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
      description = "uniform and/or zipf (default: ${DEFAULT-VALUE}).")
  List<String> models;

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
      names = "--attributes",
      defaultValue = "4",
      paramLabel = "N",
      description = "Int attributes of domain [0, 1023], all indexed (default: ${DEFAULT-VALUE}).")
  int attributes;

  @Override
  public Integer call() {
    check();
    int most = subscriptions.stream().mapToInt(Integer::intValue).max().orElseThrow();
    IntSpace space =
        new IntSpace(
            attributes,
            IntSpace.DEFAULT_DOMAIN,
            IntSpace.DEFAULT_MAX_WIDTH,
            IntSpace.DEFAULT_CONSTRAIN_PROB);
    PrintWriter err = spec.commandLine().getErr();
    List<Map<String, Object>> rows = new ArrayList<>();
    int steps = models.size() * subscriptions.size() * lengths.size();
    for (String name : models) {
      WorkloadModel model = name.equals("uniform") ? new UniformModel(space) : new ZipfModel(space);
      FalsePositiveInputs in =
          FalsePositiveInputs.of(
              model.generate(
                  new WorkloadSpec(
                      options.seed,
                      most,
                      options.events,
                      options.hosts,
                      model.defaultAssignment(),
                      Arrival.NONE)));
      for (int n : subscriptions) {
        FalsePositiveRate fpr = in.rate(n);
        for (int length : lengths) {
          FalsePositiveRate.Count c =
              fpr.at(new SpatialIndex(in.workload().schema(), length), options.maxCells);
          Map<String, Object> row = new LinkedHashMap<>();
          row.put("model", name);
          row.put("subscriptions", n);
          row.put("length", length);
          row.put("received", c.received());
          row.put("unnecessary", c.unnecessary());
          row.put("fpr", c.rate());
          rows.add(row);
          err.printf(
              "fpr: %d/%d %s n=%d L=%d: %.4f%n", rows.size(), steps, name, n, length, c.rate());
          err.flush();
        }
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("machine", MachineInfo.describe());
      options.describe(m);
      m.put("attributes", attributes);
      m.put("results", rows);
      JsonOutput.printLine(out, m);
    } else {
      out.printf(
          "%-8s %7s %4s %10s %12s %8s%n", "model", "subs", "L", "received", "unnecessary", "fpr");
      for (Map<String, Object> r : rows) {
        out.printf(
            "%-8s %7d %4d %10d %12d %8.4f%n",
            r.get("model"),
            r.get("subscriptions"),
            r.get("length"),
            r.get("received"),
            r.get("unnecessary"),
            r.get("fpr"));
      }
      out.flush();
    }
    return 0;
  }

  private void check() {
    for (String m : models) {
      if (!m.equals("uniform") && !m.equals("zipf")) {
        throw new IllegalArgumentException("--models takes uniform and zipf, not '" + m + "'");
      }
    }
    if (subscriptions.stream().anyMatch(n -> n < 1)) {
      throw new IllegalArgumentException("--subscriptions must be positive");
    }
    options.check();
  }
}
