package org.netpubsub.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.bench.index.FalsePositiveInputs;
import org.netpubsub.bench.index.FprSweep;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.FlowBudget;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.TopicModel;
import org.netpubsub.content.workload.WorkloadSpec;

/**
 * Where the topic workload's false positives come from (#21, docs/results/index-layouts.md): the
 * same inputs as {@code nps bench fpr --models topics --subscriptions 10000} (seed 1, 2 000
 * measured events, the flow sample after them, K = 64, the learned layout designed from the first
 * 500 subscriptions and the measured events), and for every false positive: whether the host's
 * union of covers already lets it in or only the flow budget's merge does; for the former, the
 * kinds of the host's filters whose covers hold it ({@code ==}, {@code +}, {@code #}, {@code
 * #+value}); and how often its topic occurs in the measured events and the flow sample (Zipf head
 * or tail). Also the cells each kind of filter spends, per host.
 *
 * <p>usage: {@code TopicFprBreakdown HOSTS L MAX_FLOWS FLOW_SAMPLE [round-robin|learned]}
 * (MAX_FLOWS 0: no flow budget). Diagnostic only: the figures it prints are the ones {@code nps
 * bench fpr} prints for the same arguments, split up.
 */
public final class TopicFprBreakdown {
  private static final int SUBSCRIPTIONS = 10_000;
  private static final int EVENTS = 2_000;
  private static final int MAX_CELLS = 64;
  private static final int DESIGN_SUBSCRIPTIONS = 500;

  private TopicFprBreakdown() {}

  public static void main(String[] args) {
    if (args.length < 4) {
      System.err.println(
          "usage: TopicFprBreakdown HOSTS L MAX_FLOWS FLOW_SAMPLE [round-robin|learned]");
      System.exit(2);
    }
    int hosts = Integer.parseInt(args[0]);
    int length = Integer.parseInt(args[1]);
    int maxFlows = Integer.parseInt(args[2]);
    int flowSample = Integer.parseInt(args[3]);
    String layout = args.length > 4 ? args[4] : "learned";
    TopicModel model = new TopicModel();
    FalsePositiveInputs all =
        FalsePositiveInputs.of(
            model.generate(
                new WorkloadSpec(
                    1,
                    SUBSCRIPTIONS,
                    EVENTS + flowSample,
                    hosts,
                    model.defaultAssignment(),
                    Arrival.NONE)));
    List<Event> measured = all.events().subList(0, EVENTS);
    List<Event> weights = all.events().subList(EVENTS, EVENTS + flowSample);
    SpatialIndex index =
        FprSweep.index(
            all.workload().schema(),
            all.subscriptions(),
            DESIGN_SUBSCRIPTIONS,
            measured,
            layout,
            length,
            MAX_CELLS,
            null);
    System.out.printf(
        "hosts=%d L=%d max_flows=%d flow_sample=%d layout=%s %s%n",
        hosts, length, maxFlows, flowSample, layout, index.schema().layout().segments());
    Map<String, Integer> seenMeasured = counts(measured);
    Map<String, Integer> seenSample = counts(weights);
    List<Dz> points = weights.stream().map(index::dz).toList();
    Dz[] dz = measured.stream().map(index::dz).toArray(Dz[]::new);
    Map<String, List<Integer>> byHost = new LinkedHashMap<>();
    for (int i = 0; i < all.subscriptions().size(); i++) {
      byHost.computeIfAbsent(all.subscriptions().get(i).host(), h -> new ArrayList<>()).add(i);
    }
    Tally t = new Tally();
    for (List<Integer> subs : byHost.values()) {
      List<DzSet> covers = new ArrayList<>();
      List<Dz> cells = new ArrayList<>();
      for (int s : subs) {
        DzSet c = index.cover(all.subscriptions().get(s).filter(), MAX_CELLS);
        covers.add(c);
        cells.addAll(c.members());
        t.cells.merge(kind(all, s), (long) c.size(), Long::sum);
      }
      DzSet union = DzSet.of(cells);
      DzSet flows = maxFlows == 0 ? union : FlowBudget.merge(union, maxFlows, points);
      t.union += union.size();
      t.flows += flows.size();
      for (int e = 0; e < dz.length; e++) {
        if (!flows.covers(dz[e])) {
          continue;
        }
        t.received++;
        if (wanted(all, subs, measured.get(e))) {
          continue;
        }
        t.falsePositives++;
        String topic = measured.get(e).stringValue(0);
        t.byFrequency.merge(
            band(seenMeasured.getOrDefault(topic, 0), seenSample.getOrDefault(topic, 0)),
            1L,
            Long::sum);
        if (!union.covers(dz[e])) {
          t.byMerge++;
          continue;
        }
        Set<String> kinds = new TreeSet<>();
        for (int i = 0; i < subs.size(); i++) {
          if (covers.get(i).covers(dz[e])) {
            kinds.add(kind(all, subs.get(i)));
          }
        }
        t.byKinds.merge(String.join(",", kinds), 1L, Long::sum);
      }
    }
    t.print(byHost.size());
  }

  private static boolean wanted(FalsePositiveInputs all, List<Integer> subs, Event e) {
    for (int s : subs) {
      if (FilterEvaluator.matches(all.subscriptions().get(s).filter(), e)) {
        return true;
      }
    }
    return false;
  }

  /** The kind of a TopicModel filter, from its text. */
  private static String kind(FalsePositiveInputs all, int s) {
    String f = all.workload().subscriptions().get(s).filter();
    return f.contains("value") ? "#+value" : f.contains("#") ? "#" : f.contains("+") ? "+" : "==";
  }

  private static Map<String, Integer> counts(List<Event> events) {
    Map<String, Integer> out = new HashMap<>();
    for (Event e : events) {
      out.merge(e.stringValue(0), 1, Integer::sum);
    }
    return out;
  }

  /** Zipf head or tail: the topic's occurrences in the measured events and in the flow sample. */
  private static String band(int measured, int sample) {
    String m = measured >= 10 ? "measured>=10" : measured >= 2 ? "measured 2-9" : "measured 1";
    return m + (sample == 0 ? ", not in flow sample" : ", in flow sample");
  }

  /** The counts, summed over hosts. */
  private static final class Tally {
    long received;
    long falsePositives;
    long byMerge;
    long union;
    long flows;
    final Map<String, Long> byKinds = new TreeMap<>();
    final Map<String, Long> byFrequency = new TreeMap<>();
    final Map<String, Long> cells = new TreeMap<>();

    void print(int hosts) {
      System.out.printf(
          "received %d, false positives %d (fpr %.4f): %d let in by the flow budget's merges, %d"
              + " by the covers themselves%n",
          received,
          falsePositives,
          (double) falsePositives / received,
          byMerge,
          falsePositives - byMerge);
      System.out.printf(
          "cells per host, mean: union of covers %.0f, after the flow budget %.0f%n",
          (double) union / hosts, (double) flows / hosts);
      Map<String, String> perHost = new LinkedHashMap<>();
      cells.forEach((k, v) -> perHost.put(k, String.format("%.0f", (double) v / hosts)));
      System.out.println("cover cells per host by filter kind (before the union): " + perHost);
      System.out.println(
          "false positives in the covers, by the kinds of filter holding them: " + byKinds);
      System.out.println("false positives by their topic's frequency: " + byFrequency);
    }
  }
}
