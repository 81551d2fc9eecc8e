package org.netpubsub.content.index;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;

/**
 * What a layout lets through where an edge switch holds a flow budget (docs/content-model.md,
 * "Designing for a flow budget"): the sample's subscriptions, taken in order, stand in for hosts of
 * {@link HostBudget#subscriptionsPerHost()} each; a host's flows are the union of its covers (at
 * most K cells each) merged by {@link FlowBudget#merge} to the budget; the score is the events the
 * host then receives that none of its subscriptions matches, summed over hosts.
 *
 * <p>The merges are weighed by the even-numbered sample events and the false positives counted on
 * the odd-numbered ones: a merge that costs nothing on the events that weigh it is not free on
 * events it has not seen (most flow-budget false positives are Zipf-tail events the weights miss,
 * docs/results/index-layouts.md), so a score on the weighing events would favour layouts whose
 * unions must be merged most. Pure and deterministic.
 */
final class HostUnionScore {
  private final List<List<Dnf>> hosts = new ArrayList<>();
  private final int[] flows;
  private final int[] weighing;
  private final int[] scored;
  private final BitSet[] wanted;
  private final int maxCells;

  HostUnionScore(FalsePositiveSample sample, HostBudget budget, int maxCells) {
    List<Dnf> subs = sample.subscriptions();
    int size = Math.min(budget.subscriptionsPerHost(), Math.max(1, subs.size()));
    for (int from = 0; from < subs.size(); from += size) {
      hosts.add(subs.subList(from, Math.min(subs.size(), from + size)));
    }
    this.flows = hosts.stream().mapToInt(h -> budget.flowsFor(h.size())).toArray();
    int n = sample.events().size();
    this.weighing = new int[(n + 1) / 2];
    this.scored = new int[n / 2];
    for (int e = 0; e < n; e++) {
      (e % 2 == 0 ? weighing : scored)[e / 2] = e;
    }
    this.wanted = new BitSet[hosts.size()];
    for (int h = 0; h < wanted.length; h++) {
      wanted[h] = new BitSet(scored.length);
      for (int i = 0; i < scored.length; i++) {
        for (Dnf f : hosts.get(h)) {
          if (FilterEvaluator.matches(f, sample.events().get(scored[i]))) {
            wanted[h].set(i);
            break;
          }
        }
      }
    }
    this.maxCells = maxCells;
  }

  /** The false positives when every host receives every scored event (an index of no bits). */
  long withoutIndex() {
    long fp = 0;
    for (BitSet w : wanted) {
      fp += scored.length - w.cardinality();
    }
    return fp;
  }

  /**
   * The scored events hosts receive unwanted under {@code index}, {@code offsets} being every
   * sample event's offsets along its dimensions.
   */
  long falsePositives(SpatialIndex index, long[][] offsets) {
    List<Dz> points = new ArrayList<>(weighing.length);
    for (int e : weighing) {
      points.add(index.dz(offsets[e]));
    }
    Dz[] events = new Dz[scored.length];
    for (int i = 0; i < events.length; i++) {
      events[i] = index.dz(offsets[scored[i]]);
    }
    long fp = 0;
    for (int h = 0; h < hosts.size(); h++) {
      DzSet cells = cells(h, index);
      if (cells.size() > flows[h]) {
        cells = FlowBudget.merge(cells, flows[h], points);
      }
      fp += unwanted(cells, events, wanted[h]);
    }
    return fp;
  }

  /** Host {@code h}'s union of covers, before the budget. */
  DzSet cells(int h, SpatialIndex index) {
    List<Dz> all = new ArrayList<>();
    for (Dnf f : hosts.get(h)) {
      all.addAll(index.cover(f, maxCells).members());
    }
    return DzSet.of(all);
  }

  int hosts() {
    return hosts.size();
  }

  int flows(int h) {
    return flows[h];
  }

  /** The events {@code cells} holds that are not {@code wanted}. */
  private static long unwanted(DzSet cells, Dz[] events, BitSet wanted) {
    long fp = 0;
    for (int i = 0; i < events.length; i++) {
      if (!wanted.get(i) && cells.covers(events[i])) {
        fp++;
      }
    }
    return fp;
  }
}
