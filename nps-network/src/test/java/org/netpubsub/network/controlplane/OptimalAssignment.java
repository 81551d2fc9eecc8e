package org.netpubsub.network.controlplane;

import java.util.List;

/**
 * The naive twin of {@link PartitionAssignment#greedy}: the optimal maximum load by brute force.
 */
final class OptimalAssignment {
  private OptimalAssignment() {}

  /** The least possible maximum load over all n^k assignments of the weights. */
  static double maxLoad(List<Double> weights, int configurators) {
    return search(weights, 0, new double[configurators]);
  }

  private static double search(List<Double> weights, int next, double[] loads) {
    if (next == weights.size()) {
      double max = 0;
      for (double l : loads) {
        max = Math.max(max, l);
      }
      return max;
    }
    double best = Double.POSITIVE_INFINITY;
    for (int c = 0; c < loads.length; c++) {
      loads[c] += weights.get(next);
      best = Math.min(best, search(weights, next + 1, loads));
      loads[c] -= weights.get(next);
    }
    return best;
  }
}
