package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.index.FalsePositiveSample;
import org.netpubsub.content.index.LayoutDesigner;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.IntSpace;
import org.netpubsub.content.workload.ItchModel;
import org.netpubsub.content.workload.TopicModel;
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
      defaultValue = "500",
      paramLabel = "N",
      description = "Subscriptions a learned layout is designed from (default: ${DEFAULT-VALUE}).")
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
    int steps = models.size() * subscriptions.size() * lengths.size() * layouts.size();
    for (String name : models) {
      WorkloadModel model =
          switch (name) {
            case "uniform" -> new UniformModel(space);
            case "zipf" -> new ZipfModel(space);
            case "topics" -> new TopicModel();
            default -> new ItchModel(ItchModel.Variant.RICH);
          };
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
          for (String layout : layouts) {
            SpatialIndex index = index(in, n, layout, length);
            FalsePositiveRate.Count c = fpr.at(index, options.maxCells);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("model", name);
            row.put("layout", layout);
            row.put("subscriptions", n);
            row.put("length", length);
            row.put("received", c.received());
            row.put("unnecessary", c.unnecessary());
            row.put("fpr", c.rate());
            int flowsMax = 0;
            long sum = 0;
            for (String host : fpr.hosts()) {
              int cells = fpr.cellsOf(host, index, options.maxCells).size();
              flowsMax = Math.max(flowsMax, cells);
              sum += cells;
            }
            row.put("edge_flows_max", flowsMax);
            row.put("edge_flows_mean", (double) sum / Math.max(1, fpr.hosts().size()));
            row.put("segments", index.schema().layout().segments());
            rows.add(row);
            err.printf(
                "fpr: %d/%d %s n=%d L=%d (%s): %.4f%n",
                rows.size(), steps, name, n, length, layout, c.rate());
            err.flush();
          }
        }
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json.enabled()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("machine", MachineInfo.describe());
      options.describe(m);
      m.put("attributes", attributes);
      m.put("layouts", layouts);
      m.put("results", rows);
      JsonOutput.printLine(out, m);
    } else {
      out.printf(
          "%-8s %-12s %7s %4s %10s %12s %8s %6s%n",
          "model", "layout", "subs", "L", "received", "unnecessary", "fpr", "flows");
      for (Map<String, Object> r : rows) {
        out.printf(
            "%-8s %-12s %7d %4d %10d %12d %8.4f %6d%n",
            r.get("model"),
            r.get("layout"),
            r.get("subscriptions"),
            r.get("length"),
            r.get("received"),
            r.get("unnecessary"),
            r.get("fpr"),
            r.get("edge_flows_max"));
      }
      out.flush();
    }
    return 0;
  }

  /**
   * The model's schema with its round-robin index, or a layout learned from the first
   * --design-subscriptions of its n subscriptions and the events, at this length.
   */
  private SpatialIndex index(FalsePositiveInputs in, int n, String layout, int length) {
    Schema schema = in.workload().schema();
    if (layout.equals("round-robin")) {
      return new SpatialIndex(schema, length);
    }
    List<Dnf> sample =
        in.subscriptions().subList(0, Math.min(n, designSubscriptions)).stream()
            .map(FalsePositiveRate.HostFilter::filter)
            .toList();
    LayoutDesigner.Design d =
        LayoutDesigner.design(
            schema, new FalsePositiveSample(in.events(), sample), length, options.maxCells);
    return new SpatialIndex(d.schema(), d.length());
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
    if (designSubscriptions < 1) {
      throw new IllegalArgumentException("--design-subscriptions must be positive");
    }
    if (subscriptions.stream().anyMatch(n -> n < 1)) {
      throw new IllegalArgumentException("--subscriptions must be positive");
    }
    options.check();
  }
}
