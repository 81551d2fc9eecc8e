package org.netpubsub.compiler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.MessageSpec;

/**
 * Compiles packet subscriptions into tables (Camus §5.2), in the style of ONOS's {@code
 * IntentCompiler.compile(intent, previous)}: without a previous result it builds everything; with
 * one it adds and withdraws only the rules that changed (by id and content) and returns the table
 * diff.
 *
 * <p>Each rule's BDD is the union of its conjunctions' BDDs (leaf: its ports); the rule set's BDD
 * is the union of all of them, kept in union trees so that a change redoes a logarithmic number of
 * unions (see {@code CompilerState}). The BDD is canonical, so an incremental result is the very
 * BDD a full compilation gives, and its tables are equal up to state numbering.
 */
public final class RuleCompiler {
  private RuleCompiler() {}

  /** A full compilation. */
  public static Compilation compile(MessageSpec spec, List<Rule> rules, CompileOptions options) {
    return compile(spec, rules, options, null);
  }

  /**
   * Compiles {@code rules}; given a {@code previous} compilation of the same spec and options, only
   * the difference, consuming {@code previous}.
   */
  public static Compilation compile(
      MessageSpec spec, List<Rule> rules, CompileOptions options, Compilation previous) {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(options, "options");
    Map<String, Rule> wanted = new LinkedHashMap<>();
    for (Rule r : rules) {
      if (wanted.put(r.id(), r) != null) {
        throw new IllegalArgumentException("two rules have the id " + r.id());
      }
    }
    boolean incremental =
        previous != null && previous.spec() == spec && previous.options().equals(options);
    CompilerState state;
    if (incremental) {
      state = previous.consume();
      List<String> stale = new ArrayList<>();
      for (CompilerState.Placed p : state.rules.values()) {
        Rule now = wanted.get(p.rule().id());
        if (now != p.rule() && (now == null || !now.sameAs(p.rule()))) {
          stale.add(p.rule().id());
        }
      }
      stale.forEach(state::remove);
      for (Rule r : wanted.values()) {
        if (!state.rules.containsKey(r.id())) {
          state.add(r);
        }
      }
    } else {
      state = new CompilerState(spec, options);
      for (Rule r : wanted.values()) {
        state.add(r);
      }
    }
    return new Compilation(state, state.commit(), incremental);
  }

  /**
   * Continues {@code previous} with rules added and withdrawn (by id): the cost of the change
   * alone, where {@link #compile} first compares every rule. Consumes {@code previous}. A rule
   * added under an id that is live replaces it.
   */
  public static Compilation update(Compilation previous, List<Rule> added, List<String> removed) {
    CompilerState state = previous.consume();
    for (String id : removed) {
      if (!state.rules.containsKey(id)) {
        throw new IllegalArgumentException("no rule " + id + " to withdraw");
      }
      state.remove(id);
    }
    for (Rule r : added) {
      if (state.rules.containsKey(r.id())) {
        state.remove(r.id());
      }
      state.add(r);
    }
    return new Compilation(state, state.commit(), true);
  }

  /** The root a full compilation of {@code c}'s rules gives, in {@code c}'s store (tests). */
  static int rebuiltRoot(Compilation c) {
    return c.state().rebuiltRoot();
  }
}
