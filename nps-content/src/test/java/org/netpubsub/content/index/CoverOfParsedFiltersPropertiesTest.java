package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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
import org.netpubsub.content.schema.Schema;

/**
 * The whole content pipeline against its oracle: filter text → parser → normal form → cover,
 * checked over EVERY event of a small mixed schema (a, b, c in [0, 7], s over {a, b, c}^≤3).
 * Whatever the index order, dz length and cell budget, no matching event may fall outside the
 * cover: the network must never lose an event a subscriber asked for.
 */
class CoverOfParsedFiltersPropertiesTest {
  private static final List<Event> ALL_EVENTS = allEvents();
  private static final List<List<String>> INDEX_ORDERS =
      List.of(
          List.of("a", "b", "c", "s"),
          List.of("s", "a"),
          List.of("c", "b"),
          List.of("b"),
          List.of("s"),
          List.of("a", "s", "c"));

  @Property(tries = 300)
  void everyMatchingEventIsCovered(
      @ForAll("filters") Filter generated,
      @ForAll("indexOrders") List<String> index,
      @ForAll("lengths") int length,
      @ForAll("budgets") int maxCells) {
    Schema schema = FilterArbitraries.MIXED.withIndex(index);
    Filter filter = FilterParser.parse(schema, FilterPrinter.print(generated));
    Dnf dnf = Normalizer.toDnf(filter);
    SpatialIndex spatial = new SpatialIndex(schema, length);
    DzSet cover = spatial.cover(dnf, maxCells);

    assertThat(cover.size()).isLessThanOrEqualTo(maxCells);
    for (Event e : ALL_EVENTS) {
      Event event = rebind(e, schema);
      if (FilterEvaluator.matches(filter, event)) {
        assertThat(cover.covers(spatial.dz(event)))
            .as(
                "%s matches %s but its dz %s is outside the cover %s",
                event, filter, spatial.dz(event), cover)
            .isTrue();
      }
    }
  }

  @Provide
  Arbitrary<Filter> filters() {
    return FilterArbitraries.filters(FilterArbitraries.MIXED, 3);
  }

  @Provide
  Arbitrary<List<String>> indexOrders() {
    return Arbitraries.of(INDEX_ORDERS);
  }

  @Provide
  Arbitrary<Integer> lengths() {
    return Arbitraries.integers().between(1, 40);
  }

  @Provide
  Arbitrary<Integer> budgets() {
    return Arbitraries.of(1, 2, 5, 64, SpatialIndex.MAX_CELLS_LIMIT);
  }

  private static Event rebind(Event e, Schema schema) {
    return Event.builder(schema)
        .set("a", e.intValue(0))
        .set("b", e.intValue(1))
        .set("c", e.intValue(2))
        .set("s", e.stringValue(3))
        .build();
  }

  private static List<Event> allEvents() {
    List<Event> out = new ArrayList<>();
    for (long a = 0; a < 8; a++) {
      for (long b = 0; b < 8; b++) {
        for (long c = 0; c < 8; c++) {
          for (String s : FilterArbitraries.STRINGS) {
            out.add(FilterArbitraries.mixedEvent(a, b, c, s));
          }
        }
      }
    }
    return List.copyOf(out);
  }
}
