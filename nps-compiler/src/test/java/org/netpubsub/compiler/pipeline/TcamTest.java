package org.netpubsub.compiler.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Prefix expansion counts, checked against a brute-force minimum on small widths. */
class TcamTest {
  @Test
  void knownCounts() {
    assertThat(Tcam.prefixes(0, 255, 8)).isEqualTo(1);
    assertThat(Tcam.prefixes(5, 5, 8)).isEqualTo(1);
    assertThat(Tcam.prefixes(1, 254, 8)).isEqualTo(14); // the worst case, 2w − 2
    assertThat(Tcam.prefixes(0, -1L, 64)).isEqualTo(1);
    assertThat(Tcam.prefixes(1, -1L, 64)).isEqualTo(64);
    assertThat(Tcam.prefixes(Long.MIN_VALUE, -1L, 64)).isEqualTo(1);
  }

  @Test
  void minimalForEveryRangeOfSixBits() {
    for (long lo = 0; lo < 64; lo++) {
      for (long hi = lo; hi < 64; hi++) {
        assertThat(Tcam.prefixes(lo, hi, 6)).as("[%d, %d]", lo, hi).isEqualTo(brute(lo, hi, 6));
      }
    }
  }

  /** The fewest aligned blocks covering exactly [lo, hi], by dynamic programming over ends. */
  private static int brute(long lo, long hi, int w) {
    int n = (int) (hi - lo + 1);
    int[] best = new int[n + 1]; // best[i]: blocks covering [lo, lo + i)
    java.util.Arrays.fill(best, Integer.MAX_VALUE);
    best[0] = 0;
    for (int i = 0; i < n; i++) {
      if (best[i] == Integer.MAX_VALUE) {
        continue;
      }
      long x = lo + i;
      for (int k = 0; k <= w; k++) {
        long size = 1L << k;
        if (x % size == 0 && i + size <= n) {
          best[i + (int) size] = Math.min(best[i + (int) size], best[i] + 1);
        }
      }
    }
    return best[n];
  }
}
