package org.netpubsub.compiler.aggregate;

import java.util.Objects;
import org.netpubsub.content.filter.Filter;

/**
 * One aggregate atom guarding a conditional action, and the slot (register cell) holding its
 * tumbling window. A slot belongs to one rule and one atom: conjunctions of a rule that share an
 * atom share its slot, so {@code (stock == "A" || stock == "B") && count() > 2 over 1s} counts the
 * messages of either stock in one window.
 */
public record Condition(Filter.Aggregate atom, int slot, long generation) {
  public Condition {
    Objects.requireNonNull(atom, "atom");
    if (slot < 0) {
      throw new IllegalArgumentException("slot " + slot + " is negative");
    }
  }

  /** The window length in nanoseconds. */
  public long windowNanos() {
    return atom.window().toNanos();
  }
}
