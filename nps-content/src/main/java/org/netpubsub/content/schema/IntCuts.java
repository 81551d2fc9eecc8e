package org.netpubsub.content.schema;

import java.util.List;

/**
 * An int dimension coded by its cut points c₁ < … < c_m (docs/content-model.md, "Index layouts"):
 * the offset of v is the number of cuts ≤ v, so the cells are the intervals between cuts. When the
 * cuts are the bounds the subscriptions use ({@code price > 80000} cuts at 80001), a range is a
 * whole number of cells and its cover is exact with a few bits. Monotone, so covers stay supersets
 * for any range.
 */
public record IntCuts(List<Long> cuts) {
  /** At most this many cuts (they are published with the index). */
  public static final int MAX_CUTS = 4096;

  public IntCuts {
    cuts = List.copyOf(cuts);
    if (cuts.size() > MAX_CUTS) {
      throw new IllegalArgumentException("cuts: " + cuts.size() + " cuts, at most " + MAX_CUTS);
    }
    for (int i = 1; i < cuts.size(); i++) {
      if (cuts.get(i - 1) >= cuts.get(i)) {
        throw new IllegalArgumentException(
            "cuts must be strictly increasing: " + cuts.get(i - 1) + " before " + cuts.get(i));
      }
    }
  }

  /** The problem with these cuts in {@code a}'s domain, if any. */
  String problem(IntAttribute a) {
    for (long c : cuts) {
      if (c <= a.min() || c > a.max()) {
        return "cut " + c + " is outside (" + a.min() + ", " + a.max() + "]";
      }
    }
    return null;
  }
}
