package org.netpubsub.content.filter;

import java.util.Arrays;
import java.util.List;
import org.netpubsub.content.filter.Filter.Comparison;
import org.netpubsub.content.schema.IntAttribute;

/**
 * Builds, intersects and compares {@link IntConstraint}s in canonical form: [low, high] within the
 * domain, endpoints not excluded, excluded points sorted, distinct and strictly inside. Exact: a
 * canonical constraint is never empty, and {@link #isSubset} decides inclusion.
 */
final class IntConstraints {
  private IntConstraints() {}

  /** The canonical form of {@code [low, high] \ excluded} on the domain, or null if empty. */
  static IntConstraint of(IntAttribute a, long low, long high, long[] excluded) {
    long[] ex = excluded.clone();
    Arrays.sort(ex);
    return ofSorted(a, low, high, ex);
  }

  /** As {@link #of}, for excluded points already sorted (duplicates allowed). */
  private static IntConstraint ofSorted(IntAttribute a, long low, long high, long[] ex) {
    long lo = Math.max(low, a.min());
    long hi = Math.min(high, a.max());
    if (lo > hi) {
      return null;
    }
    int from = 0;
    int to = ex.length;
    // An excluded endpoint shrinks the interval; repeat while the new endpoint is excluded too.
    while (from < to && ex[from] <= lo) {
      if (ex[from] == lo) {
        if (lo == hi) {
          return null;
        }
        lo++;
      }
      from++;
    }
    while (to > from && ex[to - 1] >= hi) {
      if (ex[to - 1] == hi) {
        if (lo == hi) {
          return null;
        }
        hi--;
      }
      to--;
    }
    return new IntConstraint(a, lo, hi, distinct(ex, from, to));
  }

  private static long[] distinct(long[] sorted, int from, int to) {
    long[] out = new long[to - from];
    int n = 0;
    for (int i = from; i < to; i++) {
      if (n == 0 || out[n - 1] != sorted[i]) {
        out[n++] = sorted[i];
      }
    }
    return n == out.length ? out : Arrays.copyOf(out, n);
  }

  /** The values satisfying {@code attribute op value}, or null if none. */
  static IntConstraint of(IntAttribute a, Comparison op, long v) {
    return switch (op) {
      case LT -> v <= a.min() ? null : of(a, a.min(), v - 1, new long[0]);
      case LE -> of(a, a.min(), v, new long[0]);
      case GT -> v >= a.max() ? null : of(a, v + 1, a.max(), new long[0]);
      case GE -> of(a, v, a.max(), new long[0]);
      case EQ -> of(a, v, v, new long[0]);
      case NE -> of(a, a.min(), a.max(), new long[] {v});
    };
  }

  /** Whether the constraint allows every value of the domain (and so says nothing). */
  static boolean isFull(IntConstraint c) {
    return c.low() == c.attribute().min()
        && c.high() == c.attribute().max()
        && c.excluded().length == 0;
  }

  /** The values both allow, or null if none. */
  static IntConstraint meet(IntConstraint x, IntConstraint y) {
    return ofSorted(
        x.attribute(),
        Math.max(x.low(), y.low()),
        Math.min(x.high(), y.high()),
        merge(x.excluded(), y.excluded()));
  }

  /** What all of them allow at once, or null if nothing: one sort instead of one per pair. */
  static IntConstraint meetAll(List<IntConstraint> all) {
    long lo = Long.MIN_VALUE;
    long hi = Long.MAX_VALUE;
    int n = 0;
    for (IntConstraint c : all) {
      lo = Math.max(lo, c.low());
      hi = Math.min(hi, c.high());
      n += c.excluded().length;
    }
    long[] ex = new long[n];
    int at = 0;
    for (IntConstraint c : all) {
      System.arraycopy(c.excluded(), 0, ex, at, c.excluded().length);
      at += c.excluded().length;
    }
    Arrays.sort(ex);
    return ofSorted(all.get(0).attribute(), lo, hi, ex);
  }

  private static long[] merge(long[] x, long[] y) {
    long[] out = new long[x.length + y.length];
    int i = 0;
    int j = 0;
    int k = 0;
    while (i < x.length && j < y.length) {
      out[k++] = x[i] <= y[j] ? x[i++] : y[j++];
    }
    while (i < x.length) {
      out[k++] = x[i++];
    }
    while (j < y.length) {
      out[k++] = y[j++];
    }
    return out;
  }

  /** Whether every value {@code sub} accepts is accepted by {@code sup} (both canonical). */
  static boolean isSubset(IntConstraint sub, IntConstraint sup) {
    if (sub.low() < sup.low() || sub.high() > sup.high()) {
      return false;
    }
    for (long e : sup.excluded()) {
      if (e >= sub.low() && e <= sub.high() && sub.accepts(e)) {
        return false;
      }
    }
    return true;
  }

  static boolean same(IntConstraint x, IntConstraint y) {
    return x.attribute().equals(y.attribute())
        && x.low() == y.low()
        && x.high() == y.high()
        && Arrays.equals(x.excluded(), y.excluded());
  }

  static int hash(IntConstraint c) {
    return (Long.hashCode(c.low()) * 31 + Long.hashCode(c.high())) * 31
        + Arrays.hashCode(c.excluded());
  }

  /** How much work (array elements) the constraint stands for; bounds normalization effort. */
  static int size(IntConstraint c) {
    return 1 + c.excluded().length;
  }
}
