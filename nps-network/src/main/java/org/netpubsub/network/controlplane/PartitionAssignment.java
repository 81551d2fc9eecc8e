package org.netpubsub.network.controlplane;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.content.index.Dz;

/**
 * Which configurator (index {@code 0..n-1}) owns which partition (PLEROMA §IV-A 2). Plain SPA deals
 * the partitions out in turn; SPA-LB weights them by their popularity in recent requests and packs
 * them greedily (longest processing time first), which keeps the heaviest configurator within 4/3
 * of the optimum. Every result is deterministic: ties go to the lowest configurator index and equal
 * weights are taken in dz order.
 */
public final class PartitionAssignment {
  private PartitionAssignment() {}

  /**
   * Greedy bin packing: partitions by weight descending (equal weights in dz order), each to the
   * currently least-loaded configurator (ties: the lowest index).
   */
  public static SortedMap<Dz, Integer> greedy(Map<Dz, Double> popularity, int configurators) {
    checkConfigurators(configurators);
    List<Map.Entry<Dz, Double>> byWeight = new ArrayList<>(popularity.entrySet());
    byWeight.forEach(e -> checkWeight(e.getKey(), e.getValue()));
    byWeight.sort(
        Comparator.<Map.Entry<Dz, Double>>comparingDouble(Map.Entry::getValue)
            .reversed()
            .thenComparing(Map.Entry::getKey));
    double[] loads = new double[configurators];
    SortedMap<Dz, Integer> assignment = new TreeMap<>();
    for (Map.Entry<Dz, Double> e : byWeight) {
      int least = 0;
      for (int c = 1; c < configurators; c++) {
        if (loads[c] < loads[least]) {
          least = c;
        }
      }
      loads[least] += e.getValue();
      assignment.put(e.getKey(), least);
    }
    return Collections.unmodifiableSortedMap(assignment);
  }

  /** Plain SPA: the partitions in dz order dealt out to configurators 0, 1, …, n-1, 0, … */
  public static SortedMap<Dz, Integer> roundRobin(Collection<Dz> partitions, int configurators) {
    checkConfigurators(configurators);
    SortedMap<Dz, Integer> assignment = new TreeMap<>();
    int next = 0;
    for (Dz p : new TreeSet<>(partitions)) {
      assignment.put(p, next);
      next = (next + 1) % configurators;
    }
    return Collections.unmodifiableSortedMap(assignment);
  }

  /**
   * The paper's naive assignment (§IV-A 2): the partitions shuffled by the seed, then dealt out in
   * turn, so every configurator gets k/n of them whatever their load.
   */
  public static SortedMap<Dz, Integer> random(
      Collection<Dz> partitions, int configurators, long seed) {
    checkConfigurators(configurators);
    List<Dz> shuffled = new ArrayList<>(new TreeSet<>(partitions));
    Collections.shuffle(shuffled, new java.util.Random(seed));
    SortedMap<Dz, Integer> assignment = new TreeMap<>();
    for (int i = 0; i < shuffled.size(); i++) {
      assignment.put(shuffled.get(i), i % configurators);
    }
    return Collections.unmodifiableSortedMap(assignment);
  }

  /**
   * The summed weight each configurator owns. A partition without a weight counts 0 (no recent
   * request touched it).
   */
  public static double[] loads(
      Map<Dz, Integer> assignment, Map<Dz, Double> weights, int configurators) {
    checkConfigurators(configurators);
    double[] loads = new double[configurators];
    // dz order, so that the floating-point sums do not depend on the maps' iteration order
    for (Map.Entry<Dz, Integer> e : new TreeMap<>(assignment).entrySet()) {
      Integer c = e.getValue();
      if (c == null || c < 0 || c >= configurators) {
        throw new IllegalArgumentException(
            "partition "
                + e.getKey()
                + " is assigned to configurator "
                + c
                + " of "
                + configurators);
      }
      Double w = weights.get(e.getKey());
      if (w != null) {
        checkWeight(e.getKey(), w);
        loads[c] += w;
      }
    }
    return loads;
  }

  /**
   * The popularity weights: each partition's share of the requests counted in the recent window (a
   * request split over several partitions counts for each). All counts zero means nothing is known
   * yet, so every partition gets an equal share.
   */
  public static SortedMap<Dz, Double> popularity(Map<Dz, Long> requestCounts) {
    double total = 0;
    for (Map.Entry<Dz, Long> e : requestCounts.entrySet()) {
      if (e.getValue() == null || e.getValue() < 0) {
        throw new IllegalArgumentException(
            "partition " + e.getKey() + " has a negative request count: " + e.getValue());
      }
      total += e.getValue();
    }
    SortedMap<Dz, Double> shares = new TreeMap<>();
    for (Map.Entry<Dz, Long> e : requestCounts.entrySet()) {
      shares.put(e.getKey(), total == 0 ? 1.0 / requestCounts.size() : e.getValue() / total);
    }
    return Collections.unmodifiableSortedMap(shares);
  }

  private static void checkConfigurators(int configurators) {
    if (configurators < 1) {
      throw new IllegalArgumentException("at least one configurator is needed: " + configurators);
    }
  }

  private static void checkWeight(Dz partition, Double weight) {
    if (weight == null || !(weight >= 0) || weight.isInfinite()) {
      throw new IllegalArgumentException(
          "partition " + partition + " needs a finite weight >= 0, not " + weight);
    }
  }
}
