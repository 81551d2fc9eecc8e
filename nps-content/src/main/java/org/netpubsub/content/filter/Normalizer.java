package org.netpubsub.content.filter;

/**
 * Brings a filter into {@link Dnf}: negations pushed to atoms, contradictions and subsumed
 * conjunctions removed.
 */
public final class Normalizer {
  /** Past this many conjunctions a filter is refused rather than expanded. */
  public static final int DEFAULT_MAX_CONJUNCTIONS = 10_000;

  private Normalizer() {}

  public static Dnf toDnf(Filter filter) {
    return toDnf(filter, DEFAULT_MAX_CONJUNCTIONS);
  }

  /**
   * @throws org.netpubsub.content.InvalidInputException when the DNF would exceed the limit
   */
  public static Dnf toDnf(Filter filter, int maxConjunctions) {
    throw new UnsupportedOperationException("TODO(filter helper)");
  }
}
