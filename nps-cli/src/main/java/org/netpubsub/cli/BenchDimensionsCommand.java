package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.index.DimensionScore;
import org.netpubsub.content.index.DimensionSelector;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.FalsePositiveSample;
import org.netpubsub.content.index.LayoutDesigner;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.IntSpace;
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
    PrintWriter err = spec.commandLine().getErr();
    List<Map<String, Object>> workloads = new ArrayList<>();
    for (int r : restricted) {
      List<Double> spread = new ArrayList<>(Collections.nCopies(attributes, 1.0));
      for (int i = 0; i < r; i++) {
        spread.set(i, narrow);
      }
      ZipfModel model = new ZipfModel(space, hotspots, ZipfModel.DEFAULT_EXPONENT, spread);
      FalsePositiveInputs in =
          FalsePositiveInputs.of(
              model.generate(
                  new WorkloadSpec(
                      options.seed,
                      subscriptions,
                      options.events,
                      options.hosts,
                      HostAssignment.ROUND_ROBIN,
                      Arrival.NONE)));
      Schema schema = in.workload().schema();
      List<Dnf> dnfs =
          in.subscriptions().stream().map(FalsePositiveRate.HostFilter::filter).toList();
      List<DimensionScore> ranking = DimensionSelector.rank(schema, dnfs, in.events());
      FalsePositiveRate fpr = in.rate(subscriptions);
      List<Map<String, Object>> rows = new ArrayList<>();
      double all = Double.NaN;
      for (int k = attributes; k >= 1; k--) {
        List<String> chosen =
            ranking.subList(0, k).stream().map(s -> s.attribute().name()).toList();
        FalsePositiveRate.Count c =
            fpr.at(new SpatialIndex(schema.withIndex(chosen), length), options.maxCells);
        if (k == attributes) {
          all = c.rate();
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("k", k);
        row.put("dimensions", chosen);
        row.put("received", c.received());
        row.put("unnecessary", c.unnecessary());
        row.put("fpr", c.rate());
        row.put("benefit", all > 0 ? 1 - c.rate() / all : 0.0);
        rows.add(0, row);
        err.printf("dimensions: restricted=%d k=%d %s: fpr %.4f%n", r, k, chosen, c.rate());
        err.flush();
      }
      Map<String, Object> w = new LinkedHashMap<>();
      w.put("restricted", r);
      w.put(
          "ranking",
          ranking.stream()
              .map(
                  s ->
                      Map.<String, Object>of("attribute", s.attribute().name(), "score", s.score()))
              .toList());
      w.put("results", rows);
      if (layout.equals("learned")) {
        LayoutDesigner.Design d =
            LayoutDesigner.design(
                schema,
                new FalsePositiveSample(in.events(), dnfs.subList(0, Math.min(500, dnfs.size()))),
                length,
                options.maxCells);
        FalsePositiveRate.Count c =
            fpr.at(new SpatialIndex(d.schema(), d.length()), options.maxCells);
        Map<String, Object> learned = new LinkedHashMap<>();
        learned.put("segments", d.schema().layout().segments());
        learned.put("received", c.received());
        learned.put("unnecessary", c.unnecessary());
        learned.put("fpr", c.rate());
        learned.put("benefit", all > 0 ? 1 - c.rate() / all : 0.0);
        w.put("learned", learned);
        err.printf(
            "dimensions: restricted=%d learned %s: fpr %.4f%n",
            r, learned.get("segments"), c.rate());
      }
      workloads.add(w);
    }
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
    out.printf("%-10s %3s %-40s %8s %8s%n", "restricted", "k", "dimensions", "fpr", "benefit");
    for (Map<String, Object> w : workloads) {
      for (Object o : (List<?>) w.get("results")) {
        Map<?, ?> r = (Map<?, ?>) o;
        out.printf(
            "%-10s %3s %-40s %8.4f %8.3f%n",
            w.get("restricted"), r.get("k"), r.get("dimensions"), r.get("fpr"), r.get("benefit"));
      }
    }
    out.flush();
  }
}
