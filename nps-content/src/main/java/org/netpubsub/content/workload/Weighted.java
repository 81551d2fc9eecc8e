package org.netpubsub.content.workload;

/** A discrete distribution over 0..k-1 with the given non-negative weights (need not sum to 1). */
final class Weighted {
  private final double[] cumulative;

  Weighted(double... weights) {
    if (weights.length == 0) {
      throw new IllegalArgumentException("no weights");
    }
    cumulative = new double[weights.length];
    double sum = 0;
    for (int i = 0; i < weights.length; i++) {
      if (!(weights[i] >= 0) || Double.isInfinite(weights[i])) {
        throw new IllegalArgumentException("weight " + i + " is not a finite number >= 0");
      }
      sum += weights[i];
      cumulative[i] = sum;
    }
    if (sum <= 0) {
      throw new IllegalArgumentException("weights sum to zero");
    }
  }

  int size() {
    return cumulative.length;
  }

  /** An index, drawn with probability weight[i] / sum. */
  int sample(Rand rng) {
    double u = rng.nextDouble() * cumulative[cumulative.length - 1];
    int lo = 0;
    int hi = cumulative.length - 1;
    while (lo < hi) { // first index whose cumulative weight exceeds u
      int mid = (lo + hi) >>> 1;
      if (cumulative[mid] > u) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }
}
