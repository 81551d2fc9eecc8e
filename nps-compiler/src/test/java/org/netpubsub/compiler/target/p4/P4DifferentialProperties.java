package org.netpubsub.compiler.target.p4;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.MatchKind;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.spec.QueryField;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.Filter.Comparison;
import org.netpubsub.content.filter.Filter.StringOp;
import org.netpubsub.content.filter.FilterArbitraries;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterPrinter;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.StringAttribute;

/**
 * The P4 files against the software tables and the filters: over random specs (each field of the
 * MIXED schema matched by range, lpm, or exactly — then only {@code ==} and {@code !=} on it) and
 * random rules, {@code entries.json} + {@code groups.json} run as a v1model switch forward every
 * sample event to exactly the ports {@link SoftwarePipeline} gives, which contain the ports of the
 * rules the event matches, plus at most ports of widened rules.
 */
class P4DifferentialProperties {
  static final List<Event> EVENTS = FilterArbitraries.sampleMixedEvents();

  record Case(MessageSpec spec, List<Rule> rules, long alpha) {
    @Override
    public String toString() {
      return spec.fields().stream().map(q -> q.name() + ":" + q.match().label()).toList()
          + " α="
          + alpha
          + " "
          + rules;
    }
  }

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<MatchKind> kind = Arbitraries.of(MatchKind.values());
    return kind.list()
        .ofSize(FilterArbitraries.MIXED.size())
        .flatMap(
            kinds -> {
              MessageSpec spec = spec(kinds);
              Arbitrary<List<Rule>> rules =
                  rule(spec).list().ofMaxSize(20).map(P4DifferentialProperties::numbered);
              return Combinators.combine(rules, Arbitraries.longs().between(1, 3))
                  .as((r, a) -> new Case(spec, r, a));
            });
  }

  @Property(tries = 300)
  void theFilesForwardAsTheSoftwareTablesAndNeverMissAMatch(@ForAll("cases") Case c) {
    Compilation comp = RuleCompiler.compile(c.spec(), c.rules(), new CompileOptions(c.alpha()));
    Map<String, String> files = P4Target.emit(comp);
    P4EntriesInterpreter p4 =
        P4EntriesInterpreter.of(c.spec(), files.get(P4Target.ENTRIES), files.get(P4Target.GROUPS));
    SoftwarePipeline sw = SoftwarePipeline.of(comp.pipeline());
    for (Event e : EVENTS) {
      long[] v = c.spec().values(e);
      int[] got = p4.ports(v);
      assertThat(got).as("P4 = software tables for %s", e).isEqualTo(sw.actions(v));
      int[] want = truth(c.rules(), e);
      assertThat(toSet(got)).as("no false negative for %s", e).containsAll(toSet(want));
      TreeSet<Integer> allowed = toSet(want);
      for (Rule r : c.rules()) {
        if (!comp.isExact(r.id())) {
          Arrays.stream(r.ports()).forEach(allowed::add);
        }
      }
      assertThat(allowed).as("extra ports only from widened rules, %s", e).containsAll(toSet(got));
      if (comp.widenedRules() == 0) {
        assertThat(got).as("exact rules: exactly the matching ports, %s", e).isEqualTo(want);
      }
    }
  }

  static MessageSpec spec(List<MatchKind> kinds) {
    MessageSpec base = MessageSpec.fromSchema(FilterArbitraries.MIXED);
    List<QueryField> fields = new ArrayList<>();
    for (int f = 0; f < kinds.size(); f++) {
      QueryField q = base.field(f);
      fields.add(
          new QueryField(
              q.name(), q.kind(), q.width(), kinds.get(f), q.pad(), q.min(), q.attribute()));
    }
    return MessageSpec.of("mixed", FilterArbitraries.MIXED, fields);
  }

  /** Rules of and/or (nesting ≤ 2) over atoms the spec's match kinds allow, to 1–3 ports. */
  static Arbitrary<Rule> rule(MessageSpec spec) {
    Arbitrary<Filter> atoms = atoms(spec);
    Arbitrary<Filter> level = atoms;
    for (int d = 1; d <= 2; d++) {
      Arbitrary<Filter> below = level;
      level =
          Arbitraries.frequencyOf(
              Tuple.of(1, atoms),
              Tuple.of(2, below.list().ofMinSize(1).ofMaxSize(3).map(Filter.And::new)),
              Tuple.of(2, below.list().ofMinSize(1).ofMaxSize(3).map(Filter.Or::new)));
    }
    Arbitrary<int[]> ports =
        Arbitraries.integers()
            .between(1, 6)
            .set()
            .ofMinSize(1)
            .ofMaxSize(3)
            .map(s -> s.stream().mapToInt(Integer::intValue).toArray());
    return Combinators.combine(level, ports)
        .as((f, p) -> new Rule("?", FilterPrinter.print(f), Normalizer.toDnf(f), p));
  }

  /**
   * Per attribute: on an exactly matched field only == and != (string suffixes and substrings,
   * which are widened to any value, too); elsewhere every comparison, int ranges and prefixes.
   */
  static Arbitrary<Filter> atoms(MessageSpec spec) {
    List<Arbitrary<Filter>> kinds = new ArrayList<>();
    for (Attribute a : spec.schema().attributes()) {
      boolean exact =
          spec.field(spec.fieldOf(a.position()).orElseThrow()).match() == MatchKind.EXACT;
      switch (a) {
        case IntAttribute i -> {
          Arbitrary<Comparison> ops =
              exact
                  ? Arbitraries.of(Comparison.EQ, Comparison.NE)
                  : Arbitraries.of(Comparison.values());
          Arbitrary<Long> v = Arbitraries.longs().between(i.min(), i.max());
          kinds.add(Combinators.combine(ops, v).as((op, x) -> new Filter.IntComparison(i, op, x)));
          if (!exact) {
            kinds.add(
                Combinators.combine(v, v)
                    .as((x, y) -> new Filter.IntRange(i, Math.min(x, y), Math.max(x, y))));
          }
        }
        case StringAttribute s -> {
          Arbitrary<StringOp> ops =
              exact
                  ? Arbitraries.of(StringOp.EQ, StringOp.NE, StringOp.SUFFIX, StringOp.CONTAINS)
                  : Arbitraries.of(StringOp.PLAIN);
          Arbitrary<String> v = Arbitraries.of(FilterArbitraries.STRINGS.subList(0, 13));
          kinds.add(
              Combinators.combine(ops, v).as((op, x) -> new Filter.StringComparison(s, op, x)));
        }
      }
    }
    return Arbitraries.oneOf(kinds);
  }

  static List<Rule> numbered(List<Rule> rules) {
    List<Rule> out = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      Rule r = rules.get(i);
      out.add(new Rule("r" + i, r.filter(), r.dnf(), r.ports()));
    }
    return out;
  }

  static int[] truth(List<Rule> rules, Event e) {
    TreeSet<Integer> out = new TreeSet<>();
    for (Rule r : rules) {
      if (FilterEvaluator.matches(r.dnf(), e)) {
        Arrays.stream(r.ports()).forEach(out::add);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  static TreeSet<Integer> toSet(int[] a) {
    TreeSet<Integer> s = new TreeSet<>();
    for (int x : a) {
      s.add(x);
    }
    return s;
  }
}
