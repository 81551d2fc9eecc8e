package org.netpubsub.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.bench.index.FalsePositiveInputs;
import org.netpubsub.bench.index.FprSweep;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.FlowBudget;
import org.netpubsub.content.index.HostBudget;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.TopicModel;
import org.netpubsub.content.workload.WorkloadSpec;
import org.netpubsub.network.pleroma.FalsePositiveRate;

/**
 * How low the topic workload's false positives can go for one layout (#21, docs/results/
 * index-layouts.md, "Floors"): the inputs of {@code nps bench fpr --models topics --subscriptions
 * 10000} (seed 1, 2 000 measured events, the 2 000-event flow sample after them), the layout
 * designed as that command designs it, and per host:
 *
 * <ul>
 *   <li>{@code bench}: K = 64 covers merged by {@link FlowBudget} to F (what the command reports);
 *   <li>{@code k64}: K = 64 covers, no flow budget;
 *   <li>{@code exact}: covers of {@link SpatialIndex#MAX_CELLS_LIMIT} cells, no flow budget — every
 *       L-bit cell a filter touches: the least any cover can let in at this layout and L;
 *   <li>{@code interval floor}: the least any F flows can let in at this layout and L, even chosen
 *       knowing the measured events: F prefixes are at most F intervals of the code line, they must
 *       contain the exact union (any cover does, whatever K), so at best they leave out the two
 *       outer gaps of the union and its F − 1 internal gaps that hold the most measured events.
 * </ul>
 *
 * <p>usage: {@code TopicFprFloor HOSTS L MAX_FLOWS [round-robin|learned] [DESIGN_SUBSCRIPTIONS]}
 * (DESIGN_SUBSCRIPTIONS 0 or absent: one host's worth, at least 500, as {@code nps bench fpr}). L
 * at most 63. Diagnostic only.
 */
public final class TopicFprFloor {
  private static final int SUBSCRIPTIONS = 10_000;
  private static final int EVENTS = 2_000;
  private static final int FLOW_SAMPLE = 2_000;
  private static final int MAX_CELLS = 64;

  private TopicFprFloor() {}

  public static void main(String[] args) {
    if (args.length < 3) {
      System.err.println(
          "usage: TopicFprFloor HOSTS L MAX_FLOWS [round-robin|learned] [DESIGN_SUBSCRIPTIONS]");
      System.exit(2);
    }
    int hosts = Integer.parseInt(args[0]);
    int length = Integer.parseInt(args[1]);
    int maxFlows = Integer.parseInt(args[2]);
    String layout = args.length > 3 ? args[3] : "learned";
    int requested = args.length > 4 ? Integer.parseInt(args[4]) : 0;
    TopicModel model = new TopicModel();
    FalsePositiveInputs all =
        FalsePositiveInputs.of(
            model.generate(
                new WorkloadSpec(
                    1,
                    SUBSCRIPTIONS,
                    EVENTS + FLOW_SAMPLE,
                    hosts,
                    model.defaultAssignment(),
                    Arrival.NONE)));
    List<Event> measured = all.events().subList(0, EVENTS);
    List<Event> weights = all.events().subList(EVENTS, EVENTS + FLOW_SAMPLE);
    Map<String, List<Dnf>> byHost = new LinkedHashMap<>();
    for (FalsePositiveRate.HostFilter f : all.subscriptions()) {
      byHost.computeIfAbsent(f.host(), h -> new ArrayList<>()).add(f.filter());
    }
    int design = FprSweep.designSubscriptions(requested, SUBSCRIPTIONS, byHost.size());
    long start = System.nanoTime();
    SpatialIndex index =
        FprSweep.index(
            all.workload().schema(),
            all.subscriptions(),
            design,
            measured,
            layout,
            length,
            MAX_CELLS,
            maxFlows == 0 ? null : new HostBudget(SUBSCRIPTIONS / byHost.size(), maxFlows));
    System.out.printf(
        "hosts=%d L=%d F=%d layout=%s design_subscriptions=%d design_s=%.1f %s%n",
        hosts,
        length,
        maxFlows,
        layout,
        design,
        (System.nanoTime() - start) / 1e9,
        index.schema().layout().segments());
    List<Dz> points = weights.stream().map(index::dz).toList();
    Dz[] dz = measured.stream().map(index::dz).toArray(Dz[]::new);
    int bits = dz[0].length(); // a learned layout may use fewer than L bits
    long[] code = Arrays.stream(dz).mapToLong(d -> start(d, bits)).toArray();
    long wantedSum = 0;
    long[] received = new long[4];
    long[] unwanted = new long[4];
    for (List<Dnf> subs : byHost.values()) {
      boolean[] wanted = new boolean[dz.length];
      for (int e = 0; e < dz.length; e++) {
        for (Dnf f : subs) {
          if (FilterEvaluator.matches(f, measured.get(e))) {
            wanted[e] = true;
            wantedSum++;
            break;
          }
        }
      }
      DzSet k64 = union(index, subs, MAX_CELLS);
      DzSet exact = union(index, subs, SpatialIndex.MAX_CELLS_LIMIT);
      DzSet bench = maxFlows == 0 ? k64 : FlowBudget.merge(k64, maxFlows, points);
      DzSet[] sets = {bench, k64, exact};
      for (int s = 0; s < sets.length; s++) {
        for (int e = 0; e < dz.length; e++) {
          if (sets[s].covers(dz[e])) {
            received[s]++;
            unwanted[s] += wanted[e] ? 0 : 1;
          }
        }
      }
      long[] floor = intervalFloor(exact, code, wanted, bits, maxFlows);
      received[3] += floor[0];
      unwanted[3] += floor[1];
    }
    String[] names = {"bench (K=64, F)", "K=64, no F", "exact cover, no F", "interval floor at F"};
    for (int s = 0; s < names.length; s++) {
      System.out.printf(
          "%-22s received %6d unwanted %6d fpr %.4f%n",
          names[s], received[s], unwanted[s], (double) unwanted[s] / Math.max(1, received[s]));
    }
    System.out.printf("wanted deliveries %d (of %d events x %d hosts)%n", wantedSum, EVENTS, hosts);
  }

  /**
   * The fewest measured events any {@code maxFlows} intervals containing {@code exact} can hold,
   * and how many of them are unwanted: {received, unwanted}. 0 flows: the exact union itself.
   */
  static long[] intervalFloor(
      DzSet exact, long[] code, boolean[] wanted, int length, int maxFlows) {
    List<long[]> runs = new ArrayList<>(); // the union's cells as merged [from, to] intervals
    for (Dz c : exact) {
      long from = start(c, length);
      long to = from + (1L << (length - c.length())) - 1;
      if (!runs.isEmpty() && runs.getLast()[1] + 1 >= from) {
        runs.getLast()[1] = Math.max(runs.getLast()[1], to);
      } else {
        runs.add(new long[] {from, to});
      }
    }
    long[] inGap = new long[runs.size() + 1]; // gap g lies before run g; the last after all
    long in = 0;
    long inUnwanted = 0;
    for (int e = 0; e < code.length; e++) {
      int r = run(runs, code[e]);
      if (r >= 0) {
        in++;
        inUnwanted += wanted[e] ? 0 : 1;
      } else {
        inGap[-r - 1]++;
      }
    }
    if (maxFlows == 0 || runs.size() <= maxFlows) {
      return new long[] {in, inUnwanted};
    }
    // outer gaps left out whole; of the internal ones the F - 1 heaviest
    long[] internal = Arrays.copyOfRange(inGap, 1, runs.size());
    Arrays.sort(internal);
    long let = 0;
    for (int i = 0; i < internal.length - (maxFlows - 1); i++) {
      let += internal[i];
    }
    return new long[] {in + let, inUnwanted + let}; // gap events are never wanted
  }

  /** The run holding {@code x}, or -(the gap before which it lies) - 1. */
  private static int run(List<long[]> runs, long x) {
    int lo = 0;
    int hi = runs.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (runs.get(mid)[1] < x) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo < runs.size() && runs.get(lo)[0] <= x ? lo : -lo - 1;
  }

  /** The first L-bit code of cell {@code d} (L ≤ 63). */
  private static long start(Dz d, int length) {
    return d.hi() >>> (64 - length);
  }

  private static DzSet union(SpatialIndex index, List<Dnf> subs, int maxCells) {
    List<Dz> cells = new ArrayList<>();
    for (Dnf f : subs) {
      cells.addAll(index.cover(f, maxCells).members());
    }
    return DzSet.of(cells);
  }
}
