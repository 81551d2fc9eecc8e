package org.netpubsub.content.workload;

import java.util.SplittableRandom;

/**
 * The one source of randomness of the generators: a {@link SplittableRandom} from an explicit seed.
 *
 * <p>Only {@link SplittableRandom#nextLong()} and {@link SplittableRandom#split()} are used (the
 * SplitMix64 algorithm, unchanged since Java 8); bounded integers and doubles are derived here, and
 * every transcendental function of the generators goes through {@link StrictMath}, so that a seed
 * yields the same workload byte for byte on every JVM and CPU.
 */
final class Rand {
  private final SplittableRandom random;

  Rand(long seed) {
    this(new SplittableRandom(seed));
  }

  private Rand(SplittableRandom random) {
    this.random = random;
  }

  /** An independent generator; this one advances. */
  Rand split() {
    return new Rand(random.split());
  }

  long nextLong() {
    return random.nextLong();
  }

  /** Uniform in [0, 1): the top 53 bits of a long. */
  double nextDouble() {
    return (random.nextLong() >>> 11) * 0x1.0p-53;
  }

  boolean nextBoolean() {
    return random.nextLong() < 0;
  }

  /** True with probability {@code p}. */
  boolean chance(double p) {
    return nextDouble() < p;
  }

  /** Uniform in [0, bound), bound &gt; 0: rejection sampling, so exactly uniform. */
  long below(long bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be positive: " + bound);
    }
    long mask = bound - 1;
    if ((bound & mask) == 0) {
      return random.nextLong() & mask;
    }
    // Largest multiple of bound representable as a non-negative long, minus one.
    long r;
    long limit = Long.MAX_VALUE - (Long.MAX_VALUE % bound + 1) % bound;
    do {
      r = random.nextLong() >>> 1;
    } while (r > limit);
    return r % bound;
  }

  /** Uniform in [0, bound) as an int. */
  int belowInt(int bound) {
    return (int) below(bound);
  }

  /** Uniform in [lo, hi], both inclusive; the span must fit in a long. */
  long between(long lo, long hi) {
    if (lo > hi) {
      throw new IllegalArgumentException("empty range [" + lo + ", " + hi + "]");
    }
    long span = hi - lo + 1;
    if (span <= 0) { // the whole long range: every value is fine
      return random.nextLong();
    }
    return lo + below(span);
  }

  /** Uniform in [lo, hi). */
  double uniform(double lo, double hi) {
    return lo + (hi - lo) * nextDouble();
  }

  /** Exponentially distributed with the given mean (inversion of the CDF). */
  double exponential(double mean) {
    return -StrictMath.log(1.0 - nextDouble()) * mean;
  }

  /** Poisson distributed with the given mean (Knuth's product of uniforms; mean &le; 500). */
  int poisson(double mean) {
    double limit = StrictMath.exp(-mean);
    double product = nextDouble();
    int k = 0;
    while (product > limit) {
      product *= nextDouble();
      k++;
    }
    return k;
  }
}
