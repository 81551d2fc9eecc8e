package org.netpubsub.content.filter;

import java.util.ArrayList;
import java.util.List;

/**
 * Brings a filter into {@link Dnf}: negations pushed to atoms, contradictions and subsumed
 * conjunctions removed. Conjunctions appear in the order in which the expansion first meets them,
 * so the same filter always gives the same text.
 */
public final class Normalizer {
  /** Past this many conjunctions a filter is refused rather than expanded. */
  public static final int DEFAULT_MAX_CONJUNCTIONS = 10_000;

  /**
   * Effort allowed per conjunction of the limit: conjunction elements built plus inclusion tests.
   * Generous for real filters; it stops hostile ones (long conjunctions multiplied by wide
   * disjunctions) before they use up time or memory.
   */
  static final long WORK_PER_CONJUNCTION = 3_000;

  private Normalizer() {}

  public static Dnf toDnf(Filter filter) {
    return toDnf(filter, DEFAULT_MAX_CONJUNCTIONS);
  }

  /**
   * @throws org.netpubsub.content.InvalidInputException when the DNF would exceed the limit
   */
  public static Dnf toDnf(Filter filter, int maxConjunctions) {
    if (maxConjunctions < 1) {
      throw new IllegalArgumentException("maxConjunctions must be positive: " + maxConjunctions);
    }
    WorkBudget budget = new WorkBudget(WORK_PER_CONJUNCTION * maxConjunctions);
    List<CanonicalConjunction> conjunctions =
        new DnfExpander(maxConjunctions, budget).expand(NegationNormalForm.of(filter));
    return new Dnf(new ArrayList<>(conjunctions));
  }
}
