package org.netpubsub.compiler.pipeline;

/**
 * How many ternary (TCAM) entries a range takes: the fewest prefixes whose union is [lo, hi] over a
 * w-bit field (at most 2w − 2; a single value or the whole domain is one).
 */
public final class Tcam {
  private Tcam() {}

  public static int prefixes(long lo, long hi, int width) {
    int n = 0;
    long x = lo;
    while (true) {
      // the largest aligned block starting at x that stays within [x, hi]
      int size = Long.numberOfTrailingZeros(x); // x = 0: 64
      size = Math.min(size, width);
      while (size > 0 && !fits(x, size, hi)) {
        size--;
      }
      n++;
      long last = size == 64 ? -1L : x + ((1L << size) - 1);
      if (last == hi) {
        return n;
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
