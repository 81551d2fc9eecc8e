package org.netpubsub.bench.index;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.index.DimensionScore;
import org.netpubsub.content.index.DimensionSelector;
import org.netpubsub.content.index.FalsePositiveSample;
import org.netpubsub.content.index.LayoutDesigner;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.IntSpace;
import org.netpubsub.content.workload.WorkloadSpec;
import org.netpubsub.content.workload.ZipfModel;
import org.netpubsub.network.pleroma.FalsePositiveRate;

/**
 * The false-positive rate when only the k best dimensions are indexed (PLEROMA Figures 8e and 8f),
 * on Zipf workloads whose first attributes vary little: one report per restricted count ({@code nps
 * bench dimensions}).
 */
public final class DimensionsSweep {
  /** The sweep's settings, as checked by the command. */
  public record Settings(
      IntSpace space,
      int attributes,
      List<Integer> restricted,
      double narrow,
      int hotspots,
      int length,
      int subscriptions,
      boolean learned,
      long seed,
      int events,
      int hosts,
      int maxCells) {}

  private DimensionsSweep() {}

  /** One workload report per restricted count, in order; progress lines on {@code err}. */
  public static List<Map<String, Object>> run(Settings s, PrintWriter err) {
    IntSpace space = s.space();
    List<Map<String, Object>> workloads = new ArrayList<>();
    for (int r : s.restricted()) {
      List<Double> spread = new ArrayList<>(Collections.nCopies(s.attributes(), 1.0));
      for (int i = 0; i < r; i++) {
        spread.set(i, s.narrow());
      }
      ZipfModel model = new ZipfModel(space, s.hotspots(), ZipfModel.DEFAULT_EXPONENT, spread);
      FalsePositiveInputs in =
          FalsePositiveInputs.of(
              model.generate(
                  new WorkloadSpec(
                      s.seed(),
                      s.subscriptions(),
                      s.events(),
                      s.hosts(),
                      HostAssignment.ROUND_ROBIN,
                      Arrival.NONE)));
      Schema schema = in.workload().schema();
      List<Dnf> dnfs =
          in.subscriptions().stream().map(FalsePositiveRate.HostFilter::filter).toList();
      List<DimensionScore> ranking = DimensionSelector.rank(schema, dnfs, in.events());
      FalsePositiveRate fpr = in.rate(s.subscriptions());
      List<Map<String, Object>> rows = new ArrayList<>();
      double all = Double.NaN;
      for (int k = s.attributes(); k >= 1; k--) {
        List<String> chosen =
            ranking.subList(0, k).stream().map(d -> d.attribute().name()).toList();
        FalsePositiveRate.Count c =
            fpr.at(new SpatialIndex(schema.withIndex(chosen), s.length()), s.maxCells());
        if (k == s.attributes()) {
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
                  d ->
                      Map.<String, Object>of("attribute", d.attribute().name(), "score", d.score()))
              .toList());
      w.put("results", rows);
      if (s.learned()) {
        LayoutDesigner.Design d =
            LayoutDesigner.design(
                schema,
                new FalsePositiveSample(in.events(), dnfs.subList(0, Math.min(500, dnfs.size()))),
                s.length(),
                s.maxCells());
        FalsePositiveRate.Count c = fpr.at(new SpatialIndex(d.schema(), d.length()), s.maxCells());
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
    return workloads;
  }

  /** The workloads' rows as the text table. */
  public static void print(List<Map<String, Object>> workloads, PrintWriter out) {
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
