package org.netpubsub.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * HdrHistogram's percentiles against the naive twin they replace: the sorted array's sample of
 * nearest rank ⌈q·n⌉, within 3 significant digits (0.1% of the value).
 */
class LatenciesProperties {
  @Property
  void aPercentileIsTheSortedArraysNearestRankWithinATenthOfAPercent(
      @ForAll("latencies") @Size(min = 1, max = 400) List<Long> values,
      @ForAll @IntRange(min = 1, max = 1000) int permille) {
    double q = permille / 1000.0;
    long[] nanos = values.stream().mapToLong(Long::longValue).toArray();
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    long naive = sorted[Math.max(1, (int) Math.ceil(q * sorted.length)) - 1];
    long got = Latencies.of(nanos).percentile(q);
    assertThat((double) Math.abs(got - naive)).isLessThanOrEqualTo(naive / 1000.0);
  }

  @Property
  void theMaxAndTheMeanAreTheSortedArrays(
      @ForAll("latencies") @Size(min = 1, max = 400) List<Long> values) {
    long[] nanos = values.stream().mapToLong(Long::longValue).toArray();
    Latencies l = Latencies.of(nanos);
    long max = Arrays.stream(nanos).max().orElseThrow();
    assertThat((double) Math.abs(l.percentile(1.0) - max)).isLessThanOrEqualTo(max / 1000.0);
    assertThat(l.mean()).isEqualTo(Arrays.stream(nanos).sum() / nanos.length);
    assertThat(l.count()).isEqualTo(nanos.length);
  }

  /** Exact below 2048 ns, log-spread up to an hour. */
  @Provide
  Arbitrary<List<Long>> latencies() {
    Arbitrary<Long> small = Arbitraries.longs().between(0, 3000);
    Arbitrary<Long> wide =
        Arbitraries.doubles().between(0, 28.9).map(x -> (long) Math.exp(x)); // e^28.9 ns ≈ 1 h
    return Arbitraries.oneOf(small, wide).list();
  }

  @Test
  void emptyIsZeroOrTheCallersValueAndANegativeLatencyCountsAsZero() {
    Latencies l = new Latencies();
    assertThat(l.percentile(0.5)).isZero();
    assertThat(l.percentileMillis(0.99, -1)).isEqualTo(-1);
    assertThat(l.meanMillis(Double.NaN)).isNaN();
    l.record(-5);
    assertThat(l.percentile(1.0)).isZero();
    assertThat(l.count()).isEqualTo(1);
    assertThatThrownBy(() -> l.percentile(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> l.percentile(1.5)).isInstanceOf(IllegalArgumentException.class);
  }
}
