package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.IntConstraint;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;

/**
 * What {@code nps index event|filter} print, from already-built schemas, events and DNFs (the
 * end-to-end tests need the parsers and wait for the merge).
 */
class IndexCommandOutputTest {
  static final Schema STOCKS =
      Schema.builder("stocks").intAttribute("P", 0, 99).intAttribute("V", 0, 99).build();

  @Test
  void eventDescription() {
    Event e1 = Event.builder(STOCKS).set("P", 65).set("V", 55).build();
    Map<String, Object> d = IndexEventCommand.describe(new SpatialIndex(STOCKS, 6), e1);
    assertThat(d)
        .containsExactly(
            Map.entry("dz", "110010"), Map.entry("length", 6), Map.entry("address", "ff0e:c800::"));
    assertThat(IndexEventCommand.text(d))
        .isEqualTo("dz       110010 (6 bits)\naddress  ff0e:c800::\n");
  }

  @Test
  void filterDescription() {
    Dnf upper = new Dnf(List.of(conjunction(range("P", 50, 99), range("V", 50, 99))));
    Map<String, Object> d =
        IndexFilterCommand.describe(new SpatialIndex(STOCKS, 6), upper, 64, 1000, 1);
    assertThat(d.get("cells")).isEqualTo(List.of(Map.of("dz", "11", "prefix", "ff0e:c000::/18")));
    assertThat(d.get("cell_count")).isEqualTo(1);
    assertThat(d.get("covered_fraction")).isEqualTo(0.25);
    assertThat(d.get("over_cover_fraction")).isEqualTo(0.0);
    assertThat(d.get("samples")).isEqualTo(1000);
    assertThat(IndexFilterCommand.text(d))
        .contains("1 cell (at most 64, dz length 6) covering 25.00% of the index space")
        .contains("  11  ff0e:c000::/18")
        .contains("over-cover 0.00%");
  }

  @Test
  void filterDescriptionWithoutSamplesOrConstraints() {
    Dnf always = new Dnf(List.of(conjunction()));
    Map<String, Object> d =
        IndexFilterCommand.describe(new SpatialIndex(STOCKS, 6), always, 64, 0, 1);
    assertThat(d.get("cells")).isEqualTo(List.of(Map.of("dz", "", "prefix", "ff0e::/16")));
    assertThat(d.get("over_cover_fraction")).isNull();
    assertThat(IndexFilterCommand.text(d)).contains("  ε  ff0e::/16").doesNotContain("over-cover");
  }

  private static IntConstraint range(String name, long low, long high) {
    return new IntConstraint(
        (IntAttribute) STOCKS.attribute(name).orElseThrow(), low, high, new long[0]);
  }

  private static Conjunction conjunction(AttributeConstraint... constraints) {
    var byPosition = new java.util.TreeMap<Integer, AttributeConstraint>();
    for (AttributeConstraint c : constraints) {
      byPosition.put(c.attribute().position(), c);
    }
    return new Conjunction() {
      @Override
      public Optional<AttributeConstraint> constraint(int position) {
        return Optional.ofNullable(byPosition.get(position));
      }

      @Override
      public Collection<AttributeConstraint> constraints() {
        return byPosition.values();
      }

      @Override
      public List<Filter.Aggregate> aggregates() {
        return List.of();
      }
    };
  }
}
