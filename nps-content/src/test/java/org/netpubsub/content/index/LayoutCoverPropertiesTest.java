package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.FilterArbitraries;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.FilterPrinter;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.IndexLayout;
import org.netpubsub.content.schema.IntCuts;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringCoding;

/**
 * No false negatives under any layout and coding: over every event of a small schema, each event a
 * filter matches lies in its cover, for random bit orders (hierarchies, interleavings, dimensions
 * without bits), every string coding (ordered with random common bits, hash, dictionaries with and
 * without the values that occur, topics) and int cuts.
 */
class LayoutCoverPropertiesTest {
  private static final List<Event> MIXED_EVENTS = mixedEvents();
  private static final List<String> TOPICS =
      List.of("", "a", "a/b", "a/b/c", "a/c", "a//c", "b/a/c", "a/", "ab/c", "b", "a/b/c/d");
  private static final Schema TOPIC_SCHEMA =
      Schema.builder("topics").stringAttribute("t", 8).intAttribute("n", 0, 3).build();

  @Property(tries = 400)
  void everyMatchingEventIsCoveredUnderAnyLayout(
      @ForAll("filters") Filter generated, @ForAll("seeds") long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Schema schema = withRandomLayout(FilterArbitraries.MIXED, "s", r);
    assertCovered(schema, FilterPrinter.print(generated), MIXED_EVENTS, r);
  }

  /** Names of a {@code type: topic} attribute (levels ≤ 4), '$' ones included. */
  private static final List<String> NAMES =
      List.of("a", "a/b", "a/b/c", "a/c", "b/a/c", "ab/c", "b", "a/b/c/d", "$s/a", "a/$s", "c/b");

  private static final List<String> PATTERNS =
      List.of(
          "#", "+", "a/#", "a/+", "+/b", "+/+/c", "a/+/c", "a/b/#", "+/#", "a/+/+/d", "b/+/#",
          "$s/#");

  private static final Schema MQTT_SCHEMA =
      Schema.builder("mqtt").topicAttribute("t", 12, 4).intAttribute("n", 0, 3).build();

  @Property(tries = 400)
  void everyEventAnMqttFilterMatchesIsCoveredUnderAnyLayout(@ForAll("seeds") long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Schema schema = withRandomLayout(MQTT_SCHEMA, "t", r);
    List<Event> events = new ArrayList<>();
    for (String t : NAMES) {
      for (long n = 0; n < 4; n++) {
        events.add(Event.builder(schema).set("t", t).set("n", n).build());
      }
    }
    assertCovered(schema, mqttFilter(r, 3), events, r);
  }

  /** MQTT filters, equalities and prefixes with negations, over t and n. */
  private static String mqttFilter(SplittableRandom r, int depth) {
    return compound(
        r,
        depth,
        x ->
            switch (x.nextInt(5)) {
              case 0, 1 -> "t matches \"" + PATTERNS.get(x.nextInt(PATTERNS.size())) + "\"";
              case 2 -> "t == \"" + NAMES.get(x.nextInt(NAMES.size())) + "\"";
              case 3 -> "t prefix \"" + NAMES.get(x.nextInt(NAMES.size())) + "/\"";
              default -> "n <= " + x.nextInt(4);
            });
  }

  /** Atoms from {@code leaf} joined by &&, || and ! up to {@code depth}. */
  private static String compound(
      SplittableRandom r, int depth, java.util.function.Function<SplittableRandom, String> leaf) {
    if (depth == 0 || r.nextInt(3) == 0) {
      return leaf.apply(r);
    }
    String a = compound(r, depth - 1, leaf);
    String b = compound(r, depth - 1, leaf);
    return switch (r.nextInt(3)) {
      case 0 -> "(" + a + ") && (" + b + ")";
      case 1 -> "(" + a + ") || (" + b + ")";
      default -> "!(" + a + ")";
    };
  }

  @Property(tries = 400)
  void everyMatchingTopicIsCoveredUnderAnyLayout(@ForAll("seeds") long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Schema schema = withRandomLayout(TOPIC_SCHEMA, "t", r);
    List<Event> events = new ArrayList<>();
    for (String t : TOPICS) {
      for (long n = 0; n < 4; n++) {
        events.add(Event.builder(schema).set("t", t).set("n", n).build());
      }
    }
    assertCovered(schema, topicFilter(r, 3), events, r);
  }

  private static void assertCovered(
      Schema schema, String text, List<Event> events, SplittableRandom r) {
    Filter filter = FilterParser.parse(schema, text);
    Dnf dnf = Normalizer.toDnf(filter);
    int length = Math.max(1, schema.layout().bits().size() + r.nextInt(4));
    SpatialIndex index = new SpatialIndex(schema, length);
    int maxCells = List.of(1, 2, 5, 64, SpatialIndex.MAX_CELLS_LIMIT).get(r.nextInt(5));
    DzSet cover = index.cover(dnf, maxCells);
    assertThat(cover.size()).isLessThanOrEqualTo(maxCells);
    for (Event e : events) {
      Event event = rebind(e, schema);
      if (FilterEvaluator.matches(filter, event)) {
        assertThat(cover.covers(index.dz(event)))
            .as(
                "%s matches %s but its dz %s is outside the cover %s (layout %s)",
                event, text, index.dz(event), cover, schema.layout())
            .isTrue();
      }
    }
  }

  /** A random bit order over the index (some dimensions may get none) and a random coding. */
  static Schema withRandomLayout(Schema schema, String stringName, SplittableRandom r) {
    Map<String, StringCoding> codings = new HashMap<>();
    codings.put(stringName, randomCoding(r));
    Map<String, IntCuts> cuts = new HashMap<>();
    for (var a : schema.attributes()) {
      if (a instanceof org.netpubsub.content.schema.IntAttribute i && r.nextBoolean()) {
        List<Long> points = new ArrayList<>();
        for (long v = i.min() + 1; v <= i.max(); v++) {
          if (r.nextInt(3) == 0) {
            points.add(v);
          }
        }
        cuts.put(i.name(), new IntCuts(points));
      }
    }
    IndexLayout base = new IndexLayout(List.of(), codings, cuts);
    Schema coded = schema.withLayout(base);
    SpatialIndex probe = new SpatialIndex(coded, 1);
    List<String> names = coded.indexDimensions().stream().map(a -> a.name()).toList();
    int[] left = new int[names.size()];
    for (int d = 0; d < left.length; d++) {
      left[d] = probe.resolution(d);
    }
    List<String> bits = new ArrayList<>();
    int want = r.nextInt(30);
    while (bits.size() < want) {
      int d = r.nextInt(names.size());
      int run = 1 + r.nextInt(4);
      for (int k = 0; k < run && left[d] > 0 && bits.size() < want; k++) {
        bits.add(names.get(d));
        left[d]--;
      }
      if (java.util.Arrays.stream(left).sum() == 0) {
        break;
      }
    }
    return coded.withLayout(base.withBits(bits));
  }

  private static StringCoding randomCoding(SplittableRandom r) {
    return switch (r.nextInt(4)) {
      case 0 -> {
        StringBuilder bits = new StringBuilder();
        for (int i = r.nextInt(12); i > 0; i--) {
          bits.append(r.nextInt(2));
        }
        yield new StringCoding.Ordered(bits.toString());
      }
      case 1 -> new StringCoding.Hash();
      case 2 -> {
        List<String> pool = new ArrayList<>(FilterArbitraries.STRINGS);
        pool.addAll(TOPICS.stream().filter(t -> t.length() <= 3).toList());
        pool.addAll(NAMES.stream().filter(t -> t.length() <= 3).toList());
        List<String> values = new ArrayList<>();
        for (String v : pool) {
          if (r.nextInt(3) == 0) {
            values.add(v);
          }
        }
        yield StringCoding.Dictionary.of(values);
      }
      default -> {
        List<Integer> levels = new ArrayList<>();
        for (int i = 1 + r.nextInt(4); i > 0; i--) {
          levels.add(1 + r.nextInt(6));
        }
        List<Integer> order = new ArrayList<>(StringCoding.Topic.identity(levels.size()));
        java.util.Collections.shuffle(order, new java.util.Random(r.nextLong()));
        if (r.nextBoolean()) {
          yield new StringCoding.Topic(levels, order);
        }
        // Level dictionaries: random subsets (absent "" included or not), often more values than
        // the level's bits hold, so that the escape code and clamping are exercised too.
        List<List<String>> dictionaries = new ArrayList<>();
        for (int i = 0; i < levels.size(); i++) {
          java.util.TreeSet<String> d = new java.util.TreeSet<>();
          for (String v : List.of("", "a", "ab", "b", "c", "d", "$s")) {
            if (r.nextInt(3) > 0) {
              d.add(v);
            }
          }
          dictionaries.add(r.nextInt(4) == 0 ? List.of() : List.copyOf(d));
        }
        yield new StringCoding.Topic(levels, order, dictionaries);
      }
    };
  }

  /** Topic equalities and prefixes (MQTT's a/b/#) with negations, over t and n. */
  private static String topicFilter(SplittableRandom r, int depth) {
    return compound(
        r,
        depth,
        x -> {
          String t = TOPICS.get(x.nextInt(TOPICS.size()));
          return switch (x.nextInt(4)) {
            case 0 -> "t == \"" + t + "\"";
            case 1, 2 -> "t prefix \"" + t + (x.nextBoolean() ? "/" : "") + "\"";
            default -> "n <= " + x.nextInt(4);
          };
        });
  }

  @Provide
  Arbitrary<Filter> filters() {
    return FilterArbitraries.filters(FilterArbitraries.MIXED, 3);
  }

  @Provide
  Arbitrary<Long> seeds() {
    return Arbitraries.longs();
  }

  private static Event rebind(Event e, Schema schema) {
    Event.Builder b = Event.builder(schema);
    for (var a : schema.attributes()) {
      switch (a) {
        case org.netpubsub.content.schema.IntAttribute i ->
            b.set(i.name(), e.intValue(i.position()));
        case org.netpubsub.content.schema.StringAttribute s ->
            b.set(s.name(), e.stringValue(s.position()));
      }
    }
    return b.build();
  }

  private static List<Event> mixedEvents() {
    List<Event> out = new ArrayList<>();
    for (long a = 0; a < 8; a += 1) {
      for (long b = 0; b < 8; b += 3) {
        for (long c = 0; c < 8; c += 2) {
          for (String s : FilterArbitraries.STRINGS) {
            out.add(FilterArbitraries.mixedEvent(a, b, c, s));
          }
        }
      }
    }
    return List.copyOf(out);
  }
}
