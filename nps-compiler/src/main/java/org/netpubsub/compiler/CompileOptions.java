package org.netpubsub.compiler;

/**
 * How to compile: {@code alpha} is Camus's discretization unit (§4; 1 = exact). With {@code
 * contentIds} the tables' state and group ids are functions of what they stand for (a BDD state's
 * sub-diagram, a group's actions), not of the order the rules came in: sparse, for a target whose
 * tables are rewritten when ids move (OpenFlow switches under a restarting controller); without,
 * they are compact (a P4 target's state width and table sizes). Two compilations with different
 * options never share state: recompiling with other options starts afresh.
 */
public record CompileOptions(long alpha, boolean contentIds) {
  public static final CompileOptions EXACT = new CompileOptions(1);

  public CompileOptions {
    if (alpha < 1) {
      throw new IllegalArgumentException("alpha must be at least 1, got " + alpha);
    }
  }

  /** Compact ids. */
  public CompileOptions(long alpha) {
    this(alpha, false);
  }

  /** The same, with ids from content. */
  public CompileOptions withContentIds() {
    return new CompileOptions(alpha, true);
  }
}
