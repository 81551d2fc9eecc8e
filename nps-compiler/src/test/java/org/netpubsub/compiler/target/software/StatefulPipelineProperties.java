package org.netpubsub.compiler.target.software;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
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
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.Filter.AggregateFunction;
import org.netpubsub.content.filter.Filter.Comparison;
import org.netpubsub.content.filter.FilterArbitraries;
import org.netpubsub.content.filter.FilterPrinter;
import org.netpubsub.content.filter.IntConstraint;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;

/**
 * The stateful software target against a naive twin on random rules mixing constraints and
 * aggregates and random timed event sequences. The twin keeps, per rule and aggregate atom, the
 * list of (time, argument) of every message that matched a conjunction holding the atom, and
 * recomputes count, sum and average of the current window from scratch; a rule forwards when a
 * conjunction it matches has no aggregate or all of them hold.
 */
class StatefulPipelineProperties {
  static final Schema INTS =
      Schema.builder("ints")
          .intAttribute("a", 0, 7)
          .intAttribute("b", 0, 7)
          .intAttribute("c", -4, 3)
          .build();
  static final MessageSpec SPEC = MessageSpec.fromSchema(INTS);

  record Timed(Event event, long nanos) {}

  @Provide
  Arbitrary<List<Rule>> ruleSets() {
    Arbitrary<Filter> plain = FilterArbitraries.filters(INTS, 1);
    Arbitrary<Filter> aggregate = aggregates();
    Arbitrary<Filter> filter =
        Arbitraries.frequencyOf(
            Tuple.of(1, plain),
            Tuple.of(
                3,
                Combinators.combine(plain, aggregate).as((p, g) -> new Filter.And(List.of(p, g)))),
            Tuple.of(
                2,
                Combinators.combine(plain, aggregate, aggregate)
                    .as((p, g, h) -> new Filter.And(List.of(p, new Filter.Or(List.of(g, h)))))),
            Tuple.of(
                1,
                Combinators.combine(plain, plain, aggregate)
                    .as(
                        (p, q, g) ->
                            new Filter.Or(
                                List.of(p, new Filter.And(List.of(q, new Filter.Not(g))))))));
    Arbitrary<int[]> ports =
        Arbitraries.integers()
            .between(1, 4)
            .set()
            .ofMinSize(1)
            .ofMaxSize(2)
            .map(s -> s.stream().mapToInt(Integer::intValue).toArray());
    return Combinators.combine(filter, ports)
        .as((f, p) -> new Rule("?", FilterPrinter.print(f), Normalizer.toDnf(f), p))
        .list()
        .ofMinSize(1)
        .ofMaxSize(6)
        .map(
            rs -> {
              List<Rule> out = new ArrayList<>();
              for (int i = 0; i < rs.size(); i++) {
                out.add(new Rule("r" + i, rs.get(i).filter(), rs.get(i).dnf(), rs.get(i).ports()));
              }
              return out;
            });
  }

  static Arbitrary<Filter> aggregates() {
    IntAttribute a = (IntAttribute) INTS.attribute(0);
    IntAttribute c = (IntAttribute) INTS.attribute(2);
    Arbitrary<Comparison> op = Arbitraries.of(Comparison.values());
    Arbitrary<Duration> window = Arbitraries.of(10L, 25L, 100L).map(Duration::ofNanos);
    Arbitrary<Filter> count =
        Combinators.combine(op, Arbitraries.integers().between(0, 5), window)
            .as(
                (o, t, w) ->
                    new Filter.Aggregate(
                        AggregateFunction.COUNT, null, o, BigDecimal.valueOf(t), w));
    Arbitrary<Filter> sum =
        Combinators.combine(
                op, Arbitraries.integers().between(-5, 20), window, Arbitraries.of(a, c))
            .as(
                (o, t, w, x) ->
                    new Filter.Aggregate(AggregateFunction.SUM, x, o, BigDecimal.valueOf(t), w));
    Arbitrary<Filter> avg =
        Combinators.combine(
                op, Arbitraries.of("-1", "0", "1.5", "3", "3.5", "6"), window, Arbitraries.of(a, c))
            .as(
                (o, t, w, x) ->
                    new Filter.Aggregate(AggregateFunction.AVG, x, o, new BigDecimal(t), w));
    return Arbitraries.oneOf(count, sum, avg);
  }

  @Provide
  Arbitrary<List<Timed>> sequences() {
    Arbitrary<Long> v = Arbitraries.longs().between(0, 7);
    Arbitrary<Event> events =
        Combinators.combine(v, v, Arbitraries.longs().between(-4, 3))
            .as((a, b, c) -> Event.builder(INTS).set("a", a).set("b", b).set("c", c).build());
    Arbitrary<Long> gaps =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.longs().between(0, 8)),
            Tuple.of(1, Arbitraries.longs().between(9, 120)));
    return Combinators.combine(events, gaps)
        .as(Tuple::of)
        .list()
        .ofMinSize(1)
        .ofMaxSize(40)
        .map(
            l -> {
              List<Timed> out = new ArrayList<>();
              long t = -50; // windows before and across zero
              for (var x : l) {
                t += x.get2();
                out.add(new Timed(x.get1(), t));
              }
              return out;
            });
  }

  @Property(tries = 300)
  void forwardsWhatTheNaiveTwinDoes(
      @ForAll("ruleSets") List<Rule> rules, @ForAll("sequences") List<Timed> events) {
    Compilation c = RuleCompiler.compile(SPEC, rules, CompileOptions.EXACT);
    StatefulPipeline p = StatefulPipeline.of(c);
    NaiveTwin twin = new NaiveTwin(rules);
    for (Timed t : events) {
      assertThat(p.forward(t.event(), t.nanos()))
          .as("%s at %d", t.event(), t.nanos())
          .isEqualTo(twin.forward(t.event(), t.nanos()));
    }
  }

  /** Histories per (rule, atom), recomputed on every check. */
  static final class NaiveTwin {
    private final List<Rule> rules;
    private final Map<List<Object>, List<long[]>> history = new HashMap<>();

    NaiveTwin(List<Rule> rules) {
      this.rules = rules;
    }

    int[] forward(Event e, long now) {
      TreeSet<Integer> out = new TreeSet<>();
      for (Rule r : rules) {
        List<Conjunction> matched = new ArrayList<>();
        for (Conjunction k : r.dnf().conjunctions()) {
          if (constraintsHold(k, e)) {
            matched.add(k);
          }
        }
        java.util.Set<Filter.Aggregate> updated = new java.util.HashSet<>();
        for (Conjunction k : matched) {
          for (Filter.Aggregate g : k.aggregates()) {
            if (updated.add(g)) {
              long value = g.argument() == null ? 0 : e.intValue(g.argument().position());
              history
                  .computeIfAbsent(List.of(r.id(), g), x -> new ArrayList<>())
                  .add(new long[] {now, value});
            }
          }
        }
        for (Conjunction k : matched) {
          boolean all = true;
          for (Filter.Aggregate g : k.aggregates()) {
            all &= holds(g, history.get(List.of(r.id(), g)), now);
          }
          if (all) {
            for (int port : r.ports()) {
              out.add(port);
            }
          }
        }
      }
      return out.stream().mapToInt(Integer::intValue).toArray();
    }

    static boolean constraintsHold(Conjunction k, Event e) {
      for (AttributeConstraint x : k.constraints()) {
        if (!((IntConstraint) x).accepts(e.intValue(x.attribute().position()))) {
          return false;
        }
      }
      return true;
    }

    static boolean holds(Filter.Aggregate g, List<long[]> h, long now) {
      long w = g.window().toNanos();
      long window = Math.floorDiv(now, w);
      long count = 0;
      long sum = 0;
      for (long[] x : h) {
        if (Math.floorDiv(x[0], w) == window) {
          count++;
          sum += x[1];
        }
      }
      BigDecimal value =
          switch (g.function()) {
            case COUNT -> BigDecimal.valueOf(count);
            case SUM -> BigDecimal.valueOf(sum);
            case AVG ->
                BigDecimal.valueOf(sum).divide(BigDecimal.valueOf(count), MathContext.DECIMAL128);
          };
      int cmp = value.compareTo(g.threshold());
      return switch (g.op()) {
        case LT -> cmp < 0;
        case LE -> cmp <= 0;
        case GT -> cmp > 0;
        case GE -> cmp >= 0;
        case EQ -> cmp == 0;
        case NE -> cmp != 0;
      };
    }
  }
}
