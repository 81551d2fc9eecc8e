package org.netpubsub.compiler.domain;

import java.util.Arrays;

/**
 * A set of unsigned 64-bit values: sorted, disjoint, non-adjacent inclusive intervals. Every
 * comparison is unsigned ({@link Long#compareUnsigned}), so a 64-bit field or an 8-byte string
 * never overflows. Immutable.
 */
public final class IntervalSet {
  private static final IntervalSet EMPTY = new IntervalSet(new long[0]);

  private final long[] bounds; // lo0, hi0, lo1, hi1, … ascending, hi_i + 1 < lo_{i+1}

  private IntervalSet(long[] bounds) {
    this.bounds = bounds;
  }

  public static IntervalSet empty() {
    return EMPTY;
  }

  /** [lo, hi] (unsigned); empty when lo > hi. */
  public static IntervalSet range(long lo, long hi) {
    return Long.compareUnsigned(lo, hi) > 0 ? EMPTY : new IntervalSet(new long[] {lo, hi});
  }

  public static IntervalSet point(long v) {
    return range(v, v);
  }

  /** Every value of a field whose largest value is {@code max}. */
  public static IntervalSet all(long max) {
    return range(0, max);
  }

  public boolean isEmpty() {
    return bounds.length == 0;
  }

  public int intervals() {
    return bounds.length / 2;
  }

  public long lo(int i) {
    return bounds[2 * i];
  }

  public long hi(int i) {
    return bounds[2 * i + 1];
  }

  /** Whether this is [0, max]. */
  public boolean isAll(long max) {
    return bounds.length == 2 && bounds[0] == 0 && bounds[1] == max;
  }

  public boolean contains(long v) {
    // the last interval whose lo ≤ v
    int lo = 0;
    int hi = intervals() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(lo(mid), v) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return hi >= 0 && Long.compareUnsigned(v, hi(hi)) <= 0;
  }

  /** The values, when every interval is a single value. */
  public boolean isPoints() {
    for (int i = 0; i < intervals(); i++) {
      if (lo(i) != hi(i)) {
        return false;
      }
    }
    return true;
  }

  /** How many values, saturated at Long.MAX_VALUE. */
  public long size() {
    long n = 0;
    for (int i = 0; i < intervals(); i++) {
      long width = hi(i) - lo(i) + 1; // 0 means 2^64
      if (width == 0 || width < 0 || n + width < 0) {
        return Long.MAX_VALUE;
      }
      n += width;
    }
    return n;
  }

  public IntervalSet union(IntervalSet other) {
    return merge(other, true);
  }

  public IntervalSet intersect(IntervalSet other) {
    return merge(other, false);
  }

  /** [0, max] without this set. */
  public IntervalSet complement(long max) {
    return all(max).minus(this);
  }

  public IntervalSet minus(IntervalSet other) {
    long[] out = new long[bounds.length + other.bounds.length + 2];
    int n = 0;
    int j = 0;
    for (int i = 0; i < intervals(); i++) {
      long lo = lo(i);
      long hi = hi(i);
      boolean open = true;
      // skip holes entirely below lo
      while (j < other.intervals() && Long.compareUnsigned(other.hi(j), lo) < 0) {
        j++;
      }
      int k = j;
      while (open && k < other.intervals() && Long.compareUnsigned(other.lo(k), hi) <= 0) {
        if (Long.compareUnsigned(other.lo(k), lo) > 0) {
          out[n++] = lo;
          out[n++] = other.lo(k) - 1;
        }
        if (Long.compareUnsigned(other.hi(k), hi) >= 0) {
          open = false;
        } else {
          lo = other.hi(k) + 1;
          k++;
        }
      }
      if (open) {
        out[n++] = lo;
        out[n++] = hi;
      }
    }
    return new IntervalSet(Arrays.copyOf(out, n));
  }

  private IntervalSet merge(IntervalSet other, boolean union) {
    long[] a = bounds;
    long[] b = other.bounds;
    long[] out = new long[a.length + b.length];
    int n = 0;
    int i = 0;
    int j = 0;
    if (union) {
      // both lists in order of their lower ends; append merges what touches or overlaps
      while (i < a.length || j < b.length) {
        if (j >= b.length || (i < a.length && Long.compareUnsigned(a[i], b[j]) <= 0)) {
          n = append(out, n, a[i], a[i + 1]);
          i += 2;
        } else {
          n = append(out, n, b[j], b[j + 1]);
          j += 2;
        }
      }
    } else {
      while (i < a.length && j < b.length) {
        long lo = Long.compareUnsigned(a[i], b[j]) >= 0 ? a[i] : b[j];
        long hi = Long.compareUnsigned(a[i + 1], b[j + 1]) <= 0 ? a[i + 1] : b[j + 1];
        if (Long.compareUnsigned(lo, hi) <= 0) {
          n = append(out, n, lo, hi);
        }
        if (Long.compareUnsigned(a[i + 1], b[j + 1]) < 0) {
          i += 2;
        } else {
          j += 2;
        }
      }
    }
    return n == 0 ? EMPTY : new IntervalSet(Arrays.copyOf(out, n));
  }

  private static boolean adjacent(long hi, long lo) {
    return hi != -1L && hi + 1 == lo;
  }

  /** Appends [lo, hi], merging with the last interval when they touch or overlap. */
  private static int append(long[] out, int n, long lo, long hi) {
    if (n > 0 && (Long.compareUnsigned(lo, out[n - 1]) <= 0 || adjacent(out[n - 1], lo))) {
      if (Long.compareUnsigned(hi, out[n - 1]) > 0) {
        out[n - 1] = hi;
      }
      return n;
    }
    out[n] = lo;
    out[n + 1] = hi;
    return n + 2;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IntervalSet s && Arrays.equals(bounds, s.bounds);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bounds);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < intervals(); i++) {
      sb.append(i == 0 ? "" : ", ")
          .append('[')
          .append(Long.toUnsignedString(lo(i)))
          .append(", ")
          .append(Long.toUnsignedString(hi(i)))
          .append(']');
    }
    return sb.append('}').toString();
  }
}
