package org.netpubsub.compiler.pipeline;

import java.util.ArrayList;
import java.util.List;

/**
 * How many ternary (TCAM) entries a range takes: the fewest prefixes whose union is [lo, hi] over a
 * w-bit field (at most 2w − 2; a single value or the whole domain is one).
 */
public final class Tcam {
  private Tcam() {}

  public static int prefixes(long lo, long hi, int width) {
    return expand(lo, hi, width).size();
  }

  /**
   * The prefixes themselves, each as {value, length}: the values whose top {@code length} bits (of
   * {@code width}) equal value's. Greedy from lo: the largest aligned block that stays inside.
   */
  public static List<long[]> expand(long lo, long hi, int width) {
    List<long[]> out = new ArrayList<>();
    long x = lo;
    while (true) {
      int size = Math.min(Long.numberOfTrailingZeros(x), width); // x = 0: the whole domain
      while (size > 0 && !fits(x, size, hi)) {
        size--;
      }
      out.add(new long[] {x, width - size});
      long last = size == 64 ? -1L : x + ((1L << size) - 1);
      if (last == hi) {
        return out;
      }
      x = last + 1;
    }
  }

  /** Whether the block of 2^size values from x ends at or before hi (unsigned). */
  private static boolean fits(long x, int size, long hi) {
    if (size == 64) {
      return hi == -1L;
    }
    long last = x + ((1L << size) - 1);
    return Long.compareUnsigned(last, x) >= 0 && Long.compareUnsigned(last, hi) <= 0;
  }
}
