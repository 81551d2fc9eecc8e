package org.netpubsub.compiler.domain;

import org.netpubsub.compiler.spec.FieldKind;
import org.netpubsub.compiler.spec.MessageSpec;

/**
 * Camus's approximation by discretization (§4): every numeric constant becomes a multiple of the
 * unit α, always outwards — each interval [lo, hi] of an int field widens to [⌊lo/α⌋·α,
 * ⌈(hi+1)/α⌉·α − 1] (clamped to the field), so {@code price > 53} reads {@code price > 50} and
 * {@code price < 57} reads {@code price < 60} with α = 10. The result matches a superset of the
 * original: never a false negative, some extra traffic, and far fewer distinct constants to
 * compile. α = 1 changes nothing; strings are left alone.
 */
public final class Discretizer {
  private final long alpha;

  public Discretizer(long alpha) {
    if (alpha < 1) {
      throw new IllegalArgumentException("alpha must be at least 1, got " + alpha);
    }
    this.alpha = alpha;
  }

  public long alpha() {
    return alpha;
  }

  public FieldConstraints apply(MessageSpec spec, FieldConstraints c) {
    if (alpha == 1) {
      return c;
    }
    IntervalSet[] out = new IntervalSet[c.fields().length];
    boolean changed = false;
    for (int f = 0; f < out.length; f++) {
      IntervalSet s = c.field(f);
      if (s != null && spec.field(f).kind() == FieldKind.INT) {
        out[f] = widen(s, spec.field(f).max());
        changed |= !out[f].equals(s);
      } else {
        out[f] = s;
      }
    }
    return changed ? new FieldConstraints(out, false) : c;
  }

  /** Every interval widened outwards to multiples of α, within [0, max]. */
  public IntervalSet widen(IntervalSet s, long max) {
    IntervalSet out = IntervalSet.empty();
    for (int i = 0; i < s.intervals(); i++) {
      long lo = s.lo(i) - Long.remainderUnsigned(s.lo(i), alpha);
      long hi = s.hi(i);
      long rest = Long.remainderUnsigned(hi, alpha);
      // the last value of hi's α-block: hi + (α − 1 − rest), unless that passes max (or wraps)
      long up = alpha - 1 - rest;
      hi = Long.compareUnsigned(max - hi, up) <= 0 ? max : hi + up;
      out = out.union(IntervalSet.range(lo, hi));
    }
    return out;
  }
}
