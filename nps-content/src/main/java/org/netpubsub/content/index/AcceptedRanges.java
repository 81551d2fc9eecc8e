package org.netpubsub.content.index;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.IntConstraint;
import org.netpubsub.content.filter.StringConstraint;
import org.netpubsub.content.schema.IntAttribute;

/**
 * The offsets of one index dimension that one conjunction may accept: a few disjoint, ascending,
 * inclusive unsigned intervals. Always a superset of the accepted values (never a false negative);
 * exact for int constraints with at most {@value #MAX_EXCLUSIONS} excluded points.
 */
final class AcceptedRanges {
  /** Excluded int points beyond this many are ignored (the cover grows, it never shrinks). */
  static final int MAX_EXCLUSIONS = 15;

  final long[] low;
  final long[] high;
  final int count;

  private AcceptedRanges(long[] low, long[] high, int count) {
    this.low = low;
    this.high = high;
    this.count = count;
  }

  static AcceptedRanges whole(IndexDimension dim) {
    return new AcceptedRanges(new long[] {0}, new long[] {dim.sizeMinus1()}, 1);
  }

  boolean isEmpty() {
    return count == 0;
  }

  /** Whether this is all of the dimension. */
  boolean isWhole(IndexDimension dim) {
    return count == 1 && low[0] == 0 && high[0] == dim.sizeMinus1();
  }

  /** What {@code constraint} (absent: no demand) allows along {@code dim}. */
  static AcceptedRanges of(IndexDimension dim, Optional<AttributeConstraint> constraint) {
    if (constraint.isEmpty()) {
      return whole(dim);
    }
    return switch (constraint.get()) {
      case IntConstraint c -> ofInt(dim, c);
      case StringConstraint c -> ofString(dim, c);
    };
  }

  private static AcceptedRanges ofInt(IndexDimension dim, IntConstraint c) {
    IntAttribute a = (IntAttribute) dim.attribute();
    long lo = Math.max(c.low(), a.min());
    long hi = Math.min(c.high(), a.max());
    if (lo > hi) {
      return new AcceptedRanges(new long[0], new long[0], 0);
    }
    long[] excluded = c.excluded().clone();
    Arrays.sort(excluded);
    long[] lows = new long[MAX_EXCLUSIONS + 1];
    long[] highs = new long[MAX_EXCLUSIONS + 1];
    int n = 0;
    int used = 0;
    long cur = lo;
    boolean done = false;
    for (long e : excluded) {
      if (e < cur) {
        continue;
      }
      if (e > hi || used == MAX_EXCLUSIONS) {
        break;
      }
      used++;
      if (e > cur) {
        lows[n] = dim.intOffset(cur);
        highs[n++] = dim.intOffset(e - 1);
      }
      if (e == hi) {
        done = true; // also guards e + 1 overflowing at Long.MAX_VALUE
        break;
      }
      cur = e + 1;
    }
    if (!done) {
      lows[n] = dim.intOffset(cur);
      highs[n++] = dim.intOffset(hi);
    }
    return new AcceptedRanges(lows, highs, n);
  }

  /**
   * Equality is one point, prefixes and topic filters are ranges under the dimension's coding
   * (intersected: all must hold); every other string relation allows the whole dimension.
   */
  private static AcceptedRanges ofString(IndexDimension dim, StringConstraint c) {
    if (c.equalTo() != null) {
      long v = dim.stringOffset(c.equalTo());
      return new AcceptedRanges(new long[] {v}, new long[] {v}, 1);
    }
    long[] lows = {0};
    long[] highs = {dim.sizeMinus1()};
    List<long[]> accepted = new java.util.ArrayList<>(); // one list of ranges per demand
    c.prefixes().forEach(p -> accepted.add(dim.prefixRanges(p)));
    c.patterns().forEach(p -> accepted.add(dim.patternRanges(p)));
    for (long[] r : accepted) {
      long[] nl = new long[lows.length * (r.length / 2)];
      long[] nh = new long[nl.length];
      int n = 0;
      for (int i = 0; i < lows.length; i++) {
        for (int j = 0; j < r.length; j += 2) {
          long lo = unsignedMax(lows[i], r[j]);
          long hi = unsignedMin(highs[i], r[j + 1]);
          if (Long.compareUnsigned(lo, hi) <= 0) {
            nl[n] = lo;
            nh[n++] = hi;
          }
        }
      }
      lows = Arrays.copyOf(nl, n);
      highs = Arrays.copyOf(nh, n);
    }
    return new AcceptedRanges(lows, highs, lows.length);
  }

  private static long unsignedMax(long a, long b) {
    return Long.compareUnsigned(a, b) >= 0 ? a : b;
  }

  private static long unsignedMin(long a, long b) {
    return Long.compareUnsigned(a, b) <= 0 ? a : b;
  }
}
