package org.netpubsub.compiler.target.p4;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.compiler.pipeline.Tcam;

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
    for (long[] p : Tcam.expand(lo, hi, width)) {
      out.add(new Prefix(p[0], (int) p[1], width));
    }
    return out;
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
