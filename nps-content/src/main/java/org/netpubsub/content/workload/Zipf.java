package org.netpubsub.content.workload;

/**
 * Zipf's law over the ranks 1..n: P(k) proportional to 1 / k^s. Sampled by rejection-inversion
 * (Hörmann and Derflinger, "Rejection-inversion to generate variates from monotone discrete
 * distributions", 1996): constant memory and expected constant time for any n, so it also serves
 * the distance ranks of the hotspot model over large domains. {@code s = 0} is the uniform
 * distribution.
 */
final class Zipf {
  private final int n;
  private final double exponent;
  private final double hIntegralX1;
  private final double hIntegralN;
  private final double squeeze;

  Zipf(int n, double exponent) {
    if (n < 1) {
      throw new IllegalArgumentException("Zipf needs at least one rank, got " + n);
    }
    if (!(exponent >= 0) || Double.isInfinite(exponent)) {
      throw new IllegalArgumentException("Zipf exponent must be finite and >= 0: " + exponent);
    }
    this.n = n;
    this.exponent = exponent;
    this.hIntegralX1 = hIntegral(1.5) - 1.0;
    this.hIntegralN = hIntegral(n + 0.5);
    this.squeeze = 2.0 - hIntegralInverse(hIntegral(2.5) - h(2.0));
  }

  int size() {
    return n;
  }

  /** A rank in [1, n]. */
  int sample(Rand rng) {
    while (true) {
      // u is uniform in (hIntegralX1, hIntegralN]: the area under the hat function.
      double u = hIntegralN + rng.nextDouble() * (hIntegralX1 - hIntegralN);
      double x = hIntegralInverse(u);
      int k = (int) (x + 0.5);
      if (k < 1) {
        k = 1;
      } else if (k > n) {
        k = n;
      }
      // Accept at once inside the squeeze, otherwise when u lies under the bar of rank k.
      if (k - x <= squeeze || u >= hIntegral(k + 0.5) - h(k)) {
        return k;
      }
    }
  }

  /** The exact probability of rank k (for tests and documentation; O(n)). */
  double probability(int k) {
    double norm = 0;
    for (int i = 1; i <= n; i++) {
      norm += h(i);
    }
    return h(k) / norm;
  }

  /** h(x) = x^-s. */
  private double h(double x) {
    return StrictMath.exp(-exponent * StrictMath.log(x));
  }

  /** H(x) = integral of h from 1 to x, written so that it stays accurate near s = 1. */
  private double hIntegral(double x) {
    double logX = StrictMath.log(x);
    return helper2((1.0 - exponent) * logX) * logX;
  }

  private double hIntegralInverse(double x) {
    double t = x * (1.0 - exponent);
    if (t < -1.0) {
      t = -1.0; // rounding may push t below the pole; -1 maps to the largest x
    }
    return StrictMath.exp(helper1(t) * x);
  }

  /** log(1 + x) / x, continuous at 0. */
  private static double helper1(double x) {
    return Math.abs(x) > 1e-8
        ? StrictMath.log1p(x) / x
        : 1.0 - x * (0.5 - x * (1.0 / 3.0 - x * 0.25));
  }

  /** (exp(x) - 1) / x, continuous at 0. */
  private static double helper2(double x) {
    return Math.abs(x) > 1e-8
        ? StrictMath.expm1(x) / x
        : 1.0 + x * 0.5 * (1.0 + x * (1.0 / 3.0) * (1.0 + x * 0.25));
  }
}
