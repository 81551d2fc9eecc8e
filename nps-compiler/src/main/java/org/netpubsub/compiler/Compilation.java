package org.netpubsub.compiler;

import java.util.List;
import org.netpubsub.compiler.aggregate.ConditionalActions;
import org.netpubsub.compiler.bdd.Bdd;
import org.netpubsub.compiler.pipeline.Pipeline;
import org.netpubsub.compiler.pipeline.PipelineDiff;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.MessageSpec;

/**
 * The result of compiling a rule set: the tables, what changed since the previous compilation, and
 * the BDD they come from. Handing it to {@link RuleCompiler} as the previous result makes the next
 * compilation incremental; that consumes it (its state moves on), so a consumed compilation refuses
 * to be read.
 */
public final class Compilation {
  private final CompilerState state;
  private final PipelineDiff diff;
  private final boolean incremental;
  private boolean consumed;

  Compilation(CompilerState state, PipelineDiff diff, boolean incremental) {
    this.state = state;
    this.diff = diff;
    this.incremental = incremental;
  }

  public MessageSpec spec() {
    return state.spec;
  }

  public CompileOptions options() {
    return state.options;
  }

  /** The tables (a live view while this compilation is the latest). */
  public Pipeline pipeline() {
    check();
    return state.slicer;
  }

  /** What this compilation changed: everything for a full compilation. */
  public PipelineDiff diff() {
    return diff;
  }

  /** Whether it continued a previous compilation. */
  public boolean isIncremental() {
    return incremental;
  }

  /** The rules. */
  public List<Rule> rules() {
    check();
    return state.rules.values().stream().map(CompilerState.Placed::rule).toList();
  }

  public int ruleCount() {
    check();
    return state.rules.size();
  }

  /**
   * Rules the tables match a superset of: widened constraints, α, and aggregates (which only a
   * stateful evaluation of the {@link #conditionalActions} decides).
   */
  public int widenedRules() {
    check();
    return (int) state.rules.values().stream().filter(p -> !p.exact()).count();
  }

  /** Whether the tables match exactly what rule {@code id} matches (else a superset). */
  public boolean isExact(String id) {
    check();
    CompilerState.Placed p = state.rules.get(id);
    if (p == null) {
      throw new IllegalArgumentException("no rule " + id);
    }
    return p.exact();
  }

  /**
   * What the action ids above {@code Rule.MAX_PORT} in the leaves mean: rules with aggregates
   * (Camus §2) forward through them. A snapshot.
   */
  public ConditionalActions conditionalActions() {
    check();
    return state.conditional.snapshot();
  }

  /** The actions a message with these field values gets, straight from the BDD. */
  public int[] evaluate(long[] values) {
    check();
    return state.bdd.evaluate(state.root(), values).actions();
  }

  /** The BDD the tables are sliced from. */
  public Bdd bdd() {
    check();
    return state.bdd;
  }

  /** Its root. */
  public int root() {
    check();
    return state.root();
  }

  CompilerState state() {
    check();
    return state;
  }

  /** Hands the state on to the next compilation. */
  CompilerState consume() {
    check();
    consumed = true;
    return state;
  }

  private void check() {
    if (consumed) {
      throw new IllegalStateException(
          "this compilation was given to a later one as its previous result; use that one");
    }
  }
}
