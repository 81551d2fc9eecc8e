package org.netpubsub.content.filter;

import org.netpubsub.content.InvalidInputException;

/**
 * Bounds the effort of one normalization, so that hostile filters fail fast with a clear error
 * instead of using up time or memory. Inclusion tests and pairwise string comparisons spend one
 * step each; every constraint element built spends {@link #ELEMENT_COST}, which also bounds the
 * memory that the conjunctions alive at any time can hold.
 */
final class WorkBudget {
  static final long ELEMENT_COST = 20;

  private final long total;
  private long left;

  WorkBudget(long total) {
    this.total = total;
    this.left = total;
  }

  static WorkBudget unlimited() {
    return new WorkBudget(Long.MAX_VALUE);
  }

  void spend(long steps) {
    left -= steps;
    if (left < 0) {
      throw new InvalidInputException(
          "filter too large: bringing it into normal form takes more than " + total + " steps");
    }
  }

  void spendElements(long elements) {
    spend(elements * ELEMENT_COST);
  }
}
