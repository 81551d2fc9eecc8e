package org.netpubsub.compiler.pipeline;

/**
 * One entry of a field's table (Algorithm 2's {@code (u, range) ↦ v}): a message in BDD state
 * {@code state} whose field value matches goes to state {@code next}. Entries of one state never
 * overlap, except that a default ({@link Match.Any}) entry sits below that state's value entries.
 */
public record FieldEntry(int state, Match match, int next) {
  /** Value and range entries 2, defaults 1: the higher wins where both match. */
  public int priority() {
    return match instanceof Match.Any ? 1 : 2;
  }
}
