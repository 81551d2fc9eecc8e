package org.netpubsub.bench.stats;

import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Latencies in nanoseconds in an HdrHistogram of 3 significant digits: a value read back (a
 * percentile, the max) is within 0.1% of a recorded one, in fixed memory for a run of any length.
 * The percentile of {@code q} is the recorded value of nearest rank ⌈q·n⌉, as a sorted array gives
 * it, up to that precision. The mean is exact. Recorders may run on several threads at once.
 */
public final class Latencies {
  /** The digits HdrHistogram keeps: a value's bucket is at most 1/1000 of it wide. */
  public static final int SIGNIFICANT_DIGITS = 3;

  private final Histogram histogram = new ConcurrentHistogram(SIGNIFICANT_DIGITS);
  private final LongAdder sum = new LongAdder();

  /** {@code nanos} recorded, each clamped at 0. */
  public static Latencies of(long... nanos) {
    Latencies l = new Latencies();
    for (long v : nanos) {
      l.record(v);
    }
    return l;
  }

  /** Records one latency; a negative one (a clock step) counts as 0. */
  public void record(long nanos) {
    long v = Math.max(0, nanos);
    histogram.recordValue(v);
    sum.add(v);
  }

  public long count() {
    return histogram.getTotalCount();
  }

  /** The exact mean in ns, 0 without samples. */
  public long mean() {
    long n = count();
    return n == 0 ? 0 : sum.sum() / n;
  }

  /**
   * The value (ns) below which a fraction {@code q} (0 < q ≤ 1) of the samples lie: the sample of
   * rank ⌈q·n⌉ within the histogram's precision; 0 without samples.
   */
  public long percentile(double q) {
    if (!(q > 0 && q <= 1)) {
      throw new IllegalArgumentException("quantile must be in (0, 1]: " + q);
    }
    return count() == 0 ? 0 : histogram.getValueAtPercentile(q * 100);
  }

  /** {@link #percentile} in milliseconds; {@code empty} without samples. */
  public double percentileMillis(double q, double empty) {
    return count() == 0 ? empty : percentile(q) / 1e6;
  }

  /** The mean in milliseconds (exact); {@code empty} without samples. */
  public double meanMillis(double empty) {
    return count() == 0 ? empty : (double) sum.sum() / count() / 1e6;
  }
}
