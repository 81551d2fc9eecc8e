package org.netpubsub.content.filter;

import org.netpubsub.content.InvalidInputException;

/**
 * Bounds the effort of one normalization, so that hostile filters fail fast with a clear error
 * instead of using up time or memory: every conjunction built and every inclusion test spends.
 */
final class WorkBudget {
  private long left;
  private final long total;

  WorkBudget(long total) {
    this.total = total;
    this.left = total;
  }

  void spend(long units) {
    left -= units;
    if (left < 0) {
      throw new InvalidInputException(
          "filter too large: bringing it into normal form takes more than " + total + " steps");
    }
  }
}
