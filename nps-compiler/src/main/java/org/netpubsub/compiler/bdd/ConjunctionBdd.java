package org.netpubsub.compiler.bdd;

import org.netpubsub.compiler.domain.FieldConstraints;
import org.netpubsub.compiler.domain.IntervalSet;

/**
 * The BDD of one conjunction: "these field values → this leaf, else nothing". Fields are nested in
 * variable order; within a range field a chain of thresholds where membership flips, within an
 * exact field a chain of equalities (the allowed values, or the excluded ones).
 */
public final class ConjunctionBdd {
  private ConjunctionBdd() {}

  /**
   * @param max per field, its largest value
   */
  public static int build(Bdd bdd, FieldConstraints c, long[] max, int leaf) {
    if (c.isUnsatisfiable()) {
      return Bdd.EMPTY;
    }
    int acc = leaf;
    for (int f = bdd.fields() - 1; f >= 0; f--) {
      IntervalSet s = c.field(f);
      if (s != null && !s.isAll(max[f])) {
        acc =
            bdd.isEquality(f)
                ? equalities(bdd, f, s, max[f], acc)
                : thresholds(bdd, f, s, max[f], acc);
      }
    }
    return acc;
  }

  /** v < t_0 ? seg_0 : (v < t_1 ? seg_1 : … seg_m), t_i where membership in s flips. */
  private static int thresholds(Bdd bdd, int f, IntervalSet s, long max, int then) {
    long[] flips = new long[2 * s.intervals()];
    int n = 0;
    for (int i = 0; i < s.intervals(); i++) {
      if (s.lo(i) != 0) {
        flips[n++] = s.lo(i);
      }
      if (s.hi(i) != max) {
        flips[n++] = s.hi(i) + 1;
      }
    }
    boolean member = s.contains(max);
    int acc = member ? then : Bdd.EMPTY;
    for (int i = n - 1; i >= 0; i--) {
      member = !member; // the segment below flips[i]
      acc = bdd.node(f, flips[i], member ? then : Bdd.EMPTY, acc);
    }
    return acc;
  }

  /**
   * A chain over the allowed values, or over the excluded ones when they are fewer; every value of
   * the set's intervals is one test (adjacent values merge into intervals: {@code v == 1 || v == 2}
   * is [1, 2]). The set was checked to be small ({@code ConstraintDomains}).
   */
  private static int equalities(Bdd bdd, int f, IntervalSet s, long max, int then) {
    IntervalSet excluded = s.complement(max);
    boolean allowed = Long.compareUnsigned(s.size(), excluded.size()) <= 0;
    IntervalSet points = allowed ? s : excluded;
    int acc = allowed ? Bdd.EMPTY : then;
    for (int i = points.intervals() - 1; i >= 0; i--) {
      for (long v = points.hi(i); ; v--) {
        acc = bdd.node(f, v, allowed ? then : Bdd.EMPTY, acc);
        if (v == points.lo(i)) {
          break;
        }
      }
    }
    return acc;
  }
}
