package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ZipfTest {
  /** Rejection-inversion against the exact probabilities, differential to its naive twin. */
  @ParameterizedTest
  @CsvSource({"8, 1.0", "8, 0.0", "10, 2.0", "4, 0.5", "100, 1.0", "3, 1.2"})
  void frequenciesMatchTheExactDistribution(int n, double s) {
    Zipf zipf = new Zipf(n, s);
    Rand rng = new Rand(n * 31L + (long) (s * 10));
    int samples = 100_000;
    int[] counts = new int[n + 1];
    for (int i = 0; i < samples; i++) {
      int k = zipf.sample(rng);
      assertThat(k).isBetween(1, n);
      counts[k]++;
    }
    for (int k = 1; k <= Math.min(n, 20); k++) {
      assertThat(counts[k] / (double) samples)
          .as("rank %d of Zipf(%d, %s)", k, n, s)
          .isCloseTo(zipf.probability(k), within(0.006));
    }
  }

  @Test
  void exactProbabilitiesFollowOneOverRank() {
    Zipf zipf = new Zipf(4, 1.0);
    double h4 = 1 + 1 / 2.0 + 1 / 3.0 + 1 / 4.0;
    assertThat(zipf.probability(1)).isCloseTo(1 / h4, within(1e-12));
    assertThat(zipf.probability(4)).isCloseTo(0.25 / h4, within(1e-12));
  }

  @Test
  void oneRankAlwaysYieldsOne() {
    Zipf zipf = new Zipf(1, 1.0);
    Rand rng = new Rand(1);
    for (int i = 0; i < 100; i++) {
      assertThat(zipf.sample(rng)).isEqualTo(1);
    }
  }

  @Test
  void hugeRangeNeedsNoTable() {
    Zipf zipf = new Zipf(1 << 30, 1.0);
    Rand rng = new Rand(2);
    int ones = 0;
    int n = 50_000;
    for (int i = 0; i < n; i++) {
      int k = zipf.sample(rng);
      assertThat(k).isBetween(1, 1 << 30);
      if (k == 1) {
        ones++;
      }
    }
    // P(1) = 1 / H(2^30) ≈ 1 / (ln 2^30 + 0.5772)
    double expected = 1 / (Math.log(1 << 30) + 0.5772156649);
    assertThat(ones / (double) n).isCloseTo(expected, within(0.005));
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> new Zipf(0, 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Zipf(5, -1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Zipf(5, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
