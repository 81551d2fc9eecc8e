package org.netpubsub.compiler.target.p4;

import java.util.ArrayList;
import java.util.List;

/**
 * A prefix of a {@code width}-bit field: the values whose top {@code length} bits equal those of
 * {@code value} (whose other bits are 0). What a TCAM or LPM entry matches, so a range goes into a
 * ternary or lpm table as the prefixes that cover it.
 */
public record Prefix(long value, int length, int width) {
  public Prefix {
    if (width < 1 || width > 64 || length < 0 || length > width) {
      throw new IllegalArgumentException("a prefix of " + length + " of " + width + " bits");
    }
    if ((value & ~mask(length, width)) != 0 || Long.compareUnsigned(value, max(width)) > 0) {
      throw new IllegalArgumentException(
          Long.toUnsignedString(value) + " has bits beyond its /" + length + " in " + width);
    }
  }

  /** The ternary mask: {@code length} ones from the field's top bit. */
  public long mask() {
    return mask(length, width);
  }

  /** The last value the prefix holds. */
  public long last() {
    return value | (max(width) & ~mask());
  }

  public boolean matches(long v) {
    return (v & mask()) == value;
  }

  /**
   * The fewest prefixes whose union is [lo, hi] (unsigned, lo ≤ hi ≤ 2^width − 1), ascending and
   * disjoint: at most 2·width − 2, as many as {@code Tcam.prefixes} counts.
   */
  public static List<Prefix> cover(long lo, long hi, int width) {
    long top = max(width);
    if (Long.compareUnsigned(lo, hi) > 0 || Long.compareUnsigned(hi, top) > 0) {
      throw new IllegalArgumentException(
          "["
              + Long.toUnsignedString(lo)
              + ", "
              + Long.toUnsignedString(hi)
              + "] is no range of "
              + width
              + " bits");
    }
    List<Prefix> out = new ArrayList<>();
    long x = lo;
    while (true) {
      // the largest aligned block starting at x that ends at or before hi
      int size = Math.min(Long.numberOfTrailingZeros(x), width); // x = 0: 64
      while (size > 0 && !fits(x, size, hi)) {
        size--;
      }
      out.add(new Prefix(x, width - size, width));
      long last = size == 64 ? -1L : x + ((1L << size) - 1);
      if (last == hi) {
        return out;
      }
      x = last + 1;
    }
  }

  private static boolean fits(long x, int size, long hi) {
    if (size == 64) {
      return hi == -1L;
    }
    long last = x + ((1L << size) - 1);
    return Long.compareUnsigned(last, x) >= 0 && Long.compareUnsigned(last, hi) <= 0;
  }

  static long max(int width) {
    return width == 64 ? -1L : (1L << width) - 1;
  }

  static long mask(int length, int width) {
    return length == 0 ? 0 : max(width) & (-1L << (width - length));
  }

  @Override
  public String toString() {
    return Long.toUnsignedString(value) + "/" + length;
  }
}
