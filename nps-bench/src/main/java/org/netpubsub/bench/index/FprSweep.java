package org.netpubsub.bench.index;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.FalsePositiveSample;
import org.netpubsub.content.index.FlowBudget;
import org.netpubsub.content.index.HostBudget;
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
import org.netpubsub.network.pleroma.FalsePositiveRate;

/**
 * PLEROMA's false-positive rate against the dz length for several numbers of subscriptions (paper
 * Figure 8d), one row per model, number of subscriptions, length and layout ({@code nps bench
 * fpr}).
 */
public final class FprSweep {
  /** The sweep's settings, as checked by the command. */
  public record Settings(
      List<String> models,
      List<String> layouts,
      int designSubscriptions,
      List<Integer> subscriptions,
      List<Integer> lengths,
      int attributes,
      long seed,
      int events,
      int hosts,
      int maxCells,
      List<Integer> maxFlows,
      int flowSample,
      boolean heldOutDesign) {}

  private FprSweep() {}

  /** The rows, in order; one progress line each on {@code err}. */
  public static List<Map<String, Object>> run(Settings s, PrintWriter err) {
    int most = s.subscriptions().stream().mapToInt(Integer::intValue).max().orElseThrow();
    IntSpace space =
        new IntSpace(
            s.attributes(),
            IntSpace.DEFAULT_DOMAIN,
            IntSpace.DEFAULT_MAX_WIDTH,
            IntSpace.DEFAULT_CONSTRAIN_PROB);
    List<Map<String, Object>> rows = new ArrayList<>();
    int steps =
        s.models().size()
            * s.subscriptions().size()
            * s.lengths().size()
            * s.layouts().size()
            * s.maxFlows().size();
    for (String name : s.models()) {
      WorkloadModel model =
          switch (name) {
            case "uniform" -> new UniformModel(space);
            case "zipf" -> new ZipfModel(space);
            case "topics" -> new TopicModel();
            default -> new ItchModel(ItchModel.Variant.RICH);
          };
      // the first events are measured, the flow sample after them weighs flow-budget merges
      FalsePositiveInputs both =
          FalsePositiveInputs.of(
              model.generate(
                  new WorkloadSpec(
                      s.seed(),
                      most,
                      s.events() + s.flowSample() + (s.heldOutDesign() ? s.events() : 0),
                      s.hosts(),
                      model.defaultAssignment(),
                      Arrival.NONE)));
      List<Event> weights = both.events().subList(s.events(), s.events() + s.flowSample());
      // a learned layout is designed on the measured events, or on as many drawn after the flow
      // sample (--held-out-design: events neither measured nor weighing merges)
      List<Event> design =
          s.heldOutDesign()
              ? both.events().subList(s.events() + s.flowSample(), both.events().size())
              : both.events().subList(0, s.events());
      FalsePositiveInputs in =
          new FalsePositiveInputs(
              both.workload(), both.subscriptions(), both.events().subList(0, s.events()));
      for (int n : s.subscriptions()) {
        FalsePositiveRate fpr = in.rate(n);
        for (int length : s.lengths()) {
          for (String layout : s.layouts()) {
            for (int flows : s.maxFlows()) {
              // a learned layout is designed for the flow budget it is measured at
              HostBudget designed =
                  flows == 0 ? null : new HostBudget(Math.max(1, n / fpr.hosts().size()), flows);
              int sample = designSubscriptions(s.designSubscriptions(), n, fpr.hosts().size());
              SpatialIndex index =
                  index(
                      in.workload().schema(),
                      in.subscriptions().subList(0, n),
                      sample,
                      design,
                      layout,
                      length,
                      s.maxCells(),
                      designed);
              List<Dz> points = weights.stream().map(index::dz).toList();
              UnaryOperator<DzSet> budget =
                  flows == 0 ? UnaryOperator.identity() : c -> FlowBudget.merge(c, flows, points);
              rows.add(row(fpr, index, budget, name, layout, n, length, flows, s));
              err.printf(
                  "fpr: %d/%d %s n=%d L=%d (%s, flows %d): %.4f%n",
                  rows.size(), steps, name, n, length, layout, flows, rows.getLast().get("fpr"));
              err.flush();
            }
          }
        }
      }
    }
    return rows;
  }

  private static Map<String, Object> row(
      FalsePositiveRate fpr,
      SpatialIndex index,
      UnaryOperator<DzSet> budget,
      String name,
      String layout,
      int n,
      int length,
      int flows,
      Settings s) {
    FalsePositiveRate.Count c = fpr.at(index, s.maxCells(), budget);
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("model", name);
    row.put("layout", layout);
    row.put("subscriptions", n);
    row.put("length", length);
    row.put("max_flows", flows);
    row.put("design_events", s.heldOutDesign() ? "held-out" : "measured");
    if (layout.equals("learned")) {
      row.put(
          "design_subscriptions",
          Math.min(n, designSubscriptions(s.designSubscriptions(), n, fpr.hosts().size())));
    }
    row.put("received", c.received());
    row.put("unnecessary", c.unnecessary());
    row.put("fpr", c.rate());
    int flowsMax = 0;
    long sum = 0;
    for (String host : fpr.hosts()) {
      int cells = budget.apply(fpr.cellsOf(host, index, s.maxCells())).size();
      flowsMax = Math.max(flowsMax, cells);
      sum += cells;
    }
    row.put("edge_flows_max", flowsMax);
    row.put("edge_flows_mean", (double) sum / Math.max(1, fpr.hosts().size()));
    row.put("segments", index.schema().layout().segments());
    return row;
  }

  /** The rows as the text table. */
  public static void print(List<Map<String, Object>> rows, PrintWriter out) {
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

  /** Below this many a sample misses too much of the workload's Zipf tail to design from. */
  public static final int MIN_DESIGN_SUBSCRIPTIONS = 500;

  /**
   * The subscriptions a learned layout is designed from: {@code requested}, or when 0 at least one
   * host's worth (n / hosts) and at least {@value #MIN_DESIGN_SUBSCRIPTIONS} — a sample smaller
   * than a host makes {@link HostBudget} score a fraction of a host at a scaled-down flow budget,
   * which is not the union the edge switch holds (8 hosts: 500 of 1 250, F 224 scaled to 89).
   */
  public static int designSubscriptions(int requested, int n, int hosts) {
    return requested > 0 ? requested : Math.max(MIN_DESIGN_SUBSCRIPTIONS, n / Math.max(1, hosts));
  }

  /**
   * The schema with its round-robin index, or a layout learned from the first {@code sample} of
   * {@code subscriptions} and {@code events}, at this length, cell budget and flow budget ({@code
   * null}: none): how {@code nps bench fpr} designs a learned row, and what its diagnostics
   * (TopicFprFloor, TopicFprBreakdown) design with.
   */
  public static SpatialIndex index(
      Schema schema,
      List<FalsePositiveRate.HostFilter> subscriptions,
      int sample,
      List<Event> events,
      String layout,
      int length,
      int maxCells,
      HostBudget budget) {
    if (layout.equals("round-robin")) {
      return new SpatialIndex(schema, length);
    }
    List<Dnf> filters =
        subscriptions.subList(0, Math.min(subscriptions.size(), sample)).stream()
            .map(FalsePositiveRate.HostFilter::filter)
            .toList();
    LayoutDesigner.Design d =
        LayoutDesigner.design(
            schema, new FalsePositiveSample(events, filters), length, maxCells, budget);
    return new SpatialIndex(d.schema(), d.length());
  }
}
