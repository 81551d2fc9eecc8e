package org.netpubsub.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterArbitraries;

/**
 * The compiled tables against direct evaluation: on random rule sets over ints and strings, every
 * event gets exactly the ports of the rules it matches when they compile exactly, and a superset
 * bounded by the widened rules otherwise — never fewer. The tables (run by the software target) and
 * the BDD they come from always agree.
 */
class CompilerDifferentialProperties {
  static final MessageSpec SPEC = MessageSpec.fromSchema(FilterArbitraries.MIXED);
  static final List<Event> EVENTS = FilterArbitraries.sampleMixedEvents();

  @Provide
  Arbitrary<List<Rule>> ruleSets() {
    return CompilerFixtures.rules(FilterArbitraries.MIXED, 25);
  }

  @Property(tries = 200)
  void tablesForwardWhatTheFiltersMatch(
      @ForAll("ruleSets") List<Rule> rules, @ForAll @IntRange(min = 1, max = 3) int alpha) {
    Compilation c = RuleCompiler.compile(SPEC, rules, new CompileOptions(alpha));
    SoftwarePipeline sw = SoftwarePipeline.of(c.pipeline());
    for (Event e : EVENTS) {
      long[] v = SPEC.values(e);
      int[] got = sw.actions(v);
      assertThat(got).as("tables = BDD for %s", e).isEqualTo(c.evaluate(v));
      int[] want = CompilerFixtures.truth(rules, e);
      TreeSet<Integer> allowed = new TreeSet<>();
      for (int p : want) {
        allowed.add(p);
      }
      for (Rule r : rules) {
        if (!c.isExact(r.id())) {
          for (int p : r.ports()) {
            allowed.add(p);
          }
        }
      }
      assertThat(toSet(got)).as("no false negative for %s", e).containsAll(toSet(want));
      assertThat(allowed).as("extra ports only from widened rules, %s", e).containsAll(toSet(got));
      if (c.widenedRules() == 0) {
        assertThat(got).as("exact rules: exactly the matching ports, %s", e).isEqualTo(want);
      }
    }
  }

  private static TreeSet<Integer> toSet(int[] a) {
    TreeSet<Integer> s = new TreeSet<>();
    for (int x : a) {
      s.add(x);
    }
    return s;
  }
}
