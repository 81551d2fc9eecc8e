package org.netpubsub.content.filter;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Filter.Comparison;
import org.netpubsub.content.filter.Filter.StringOp;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/** Random typed filters and events over small schemas, for property tests. */
public final class FilterArbitraries {
  /** Ints a, b, c in [0, 7] and a string s of at most 3 bytes. */
  public static final Schema MIXED =
      Schema.builder("mixed")
          .intAttribute("a", 0, 7)
          .intAttribute("b", 0, 7)
          .intAttribute("c", 0, 7)
          .stringAttribute("s", 3)
          .build();

  /** Ints a, b, c in [0, 4]: 125 events, few enough to enumerate. */
  static final Schema SMALL_INTS =
      Schema.builder("small")
          .intAttribute("a", 0, 4)
          .intAttribute("b", 0, 4)
          .intAttribute("c", 0, 4)
          .build();

  /** Every string over {a, b, c} of length at most 3, "" first. */
  public static final List<String> STRINGS = strings("abc", 3);

  private FilterArbitraries() {}

  static List<String> strings(String alphabet, int maxLength) {
    List<String> out = new ArrayList<>(List.of(""));
    for (int from = 0, len = 1; len <= maxLength; len++) {
      int to = out.size();
      for (int i = from; i < to; i++) {
        for (char ch : alphabet.toCharArray()) {
          out.add(out.get(i) + ch);
        }
      }
      from = to;
    }
    return List.copyOf(out);
  }

  /** Filters over {@code schema} nested at most {@code depth} levels, atoms drawn per type. */
  public static Arbitrary<Filter> filters(Schema schema, int depth) {
    Arbitrary<Filter> atoms = atoms(schema);
    Arbitrary<Filter> level = atoms;
    for (int d = 1; d <= depth; d++) {
      Arbitrary<Filter> below = level;
      level =
          Arbitraries.frequencyOf(
              Tuple.of(1, atoms),
              Tuple.of(3, below.list().ofMinSize(1).ofMaxSize(3).map(Filter.And::new)),
              Tuple.of(3, below.list().ofMinSize(1).ofMaxSize(3).map(Filter.Or::new)),
              Tuple.of(1, below.map(Filter.Not::new)));
    }
    return level;
  }

  /** Atoms with every attribute equally likely, plus the constants (empty And and Or too). */
  static Arbitrary<Filter> atoms(Schema schema) {
    List<Tuple.Tuple2<Integer, Arbitrary<Filter>>> kinds = new ArrayList<>();
    kinds.add(
        Tuple.of(
            1,
            Arbitraries.<Filter>of(
                new Filter.Constant(true),
                new Filter.Constant(false),
                new Filter.And(List.of()),
                new Filter.Or(List.of()))));
    for (var a : schema.attributes()) {
      switch (a) {
        case IntAttribute i -> {
          kinds.add(Tuple.of(7, intComparison(i)));
          kinds.add(Tuple.of(3, intRange(i)));
        }
        case StringAttribute s -> kinds.add(Tuple.of(10, stringComparison(s)));
      }
    }
    return Arbitraries.frequencyOf(kinds);
  }

  private static Arbitrary<Filter> intComparison(IntAttribute a) {
    return Combinators.combine(
            Arbitraries.of(Comparison.values()), Arbitraries.longs().between(a.min(), a.max()))
        .as((op, v) -> new Filter.IntComparison(a, op, v));
  }

  private static Arbitrary<Filter> intRange(IntAttribute a) {
    Arbitrary<Long> v = Arbitraries.longs().between(a.min(), a.max());
    return Combinators.combine(v, v)
        .as((x, y) -> new Filter.IntRange(a, Math.min(x, y), Math.max(x, y)));
  }

  private static Arbitrary<Filter> stringComparison(StringAttribute a) {
    // Short constants collide more often, which is where contradictions and subsumption live.
    Arbitrary<String> constants =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.just("")),
            Tuple.of(4, Arbitraries.of(STRINGS.subList(1, 4))),
            Tuple.of(4, Arbitraries.of(STRINGS.subList(4, 13))),
            Tuple.of(2, Arbitraries.of(STRINGS.subList(13, STRINGS.size()))));
    return Combinators.combine(Arbitraries.of(StringOp.PLAIN), constants)
        .as((op, v) -> new Filter.StringComparison(a, op, v));
  }

  /** Random events of the MIXED schema. */
  public static Arbitrary<Event> mixedEvents() {
    Arbitrary<Long> v = Arbitraries.longs().between(0, 7);
    return Combinators.combine(v, v, v, Arbitraries.of(STRINGS))
        .as((a, b, c, s) -> mixedEvent(a, b, c, s));
  }

  public static Event mixedEvent(long a, long b, long c, String s) {
    return Event.builder(MIXED).set("a", a).set("b", b).set("c", c).set("s", s).build();
  }

  /** Every event of the SMALL_INTS schema, in a fixed order. */
  static List<Event> allSmallIntEvents() {
    List<Event> out = new ArrayList<>();
    for (long a = 0; a <= 4; a++) {
      for (long b = 0; b <= 4; b++) {
        for (long c = 0; c <= 4; c++) {
          out.add(Event.builder(SMALL_INTS).set("a", a).set("b", b).set("c", c).build());
        }
      }
    }
    return out;
  }

  /** A fixed spread of MIXED events: every string with varied ints, plus every int triple. */
  public static List<Event> sampleMixedEvents() {
    List<Event> out = new ArrayList<>();
    int i = 0;
    for (String s : STRINGS) {
      for (int k = 0; k < 6; k++, i++) {
        out.add(mixedEvent(i % 8, (i * 3 + k) % 8, (i * 5 + 2 * k) % 8, s));
      }
    }
    for (long a = 0; a <= 7; a++) {
      for (long b = 0; b <= 7; b++) {
        for (long c = 0; c <= 7; c++) {
          out.add(mixedEvent(a, b, c, STRINGS.get((int) ((a * 64 + b * 8 + c) % STRINGS.size()))));
        }
      }
    }
    return List.copyOf(out);
  }
}
