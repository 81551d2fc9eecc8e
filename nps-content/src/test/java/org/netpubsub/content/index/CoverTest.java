package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.content.index.TestConjunction.dnf;
import static org.netpubsub.content.index.TestConjunction.range;

import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.schema.Schema;

/** Filter → cover, against brute force over every event of small event spaces. */
class CoverTest {
  static final Schema MIXED =
      Schema.builder("mixed")
          .intAttribute("x", -3, 4)
          .intAttribute("y", 0, 5)
          .stringAttribute("s", 2)
          .intAttribute("z", 0, 2)
          .build();

  /** Index variants: every kind of dimension, reordered, with non-index attributes. */
  static final List<Schema> VARIANTS =
      List.of(
          MIXED,
          MIXED.withIndex(List.of("x", "y")),
          MIXED.withIndex(List.of("s", "x")),
          MIXED.withIndex(List.of("y")),
          MIXED.withIndex(List.of("z", "s", "y", "x")));

  static final List<Event> MIXED_EVENTS = RandomFilters.allEvents(MIXED);

  static final Schema INTS =
      Schema.builder("ints")
          .intAttribute("x", -3, 4)
          .intAttribute("y", 0, 5)
          .intAttribute("z", 0, 9)
          .build();

  static final List<Event> INT_EVENTS = RandomFilters.allEvents(INTS);

  @Property(tries = 300)
  void noFalseNegatives(@ForAll long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Schema schema = VARIANTS.get(r.nextInt(VARIANTS.size()));
    int length = 1 + r.nextInt(SpatialIndex.defaultLength(schema) + 4);
    int maxCells = r.nextInt(4) == 0 ? Integer.MAX_VALUE : 1 + r.nextInt(40);
    Dnf dnf = RandomFilters.dnf(schema, r, 3, 3);
    SpatialIndex index = new SpatialIndex(schema, Math.min(length, Dz.MAX_LENGTH));
    DzSet cover = index.cover(dnf, maxCells);

    assertThat(cover.size()).isLessThanOrEqualTo(maxCells);
    assertThat(cover.maxLength()).isLessThanOrEqualTo(index.length());
    assertThat(DzSet.of(cover.members())).isEqualTo(cover);
    for (Event e : MIXED_EVENTS) {
      Event typed = retype(e, schema);
      if (ConjunctionMatch.matches(dnf, typed)) {
        assertThat(cover.covers(index.dz(typed)))
            .as("%s matches %s but %s misses %s", e, dnf, cover, index.dz(typed))
            .isTrue();
      }
    }
  }

  @Property(tries = 300)
  void exactForIntBoxesAtFullResolution(@ForAll long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Dnf dnf = RandomFilters.dnf(INTS, r, 3, 3);
    SpatialIndex index = SpatialIndex.withDefaultLength(INTS);
    DzSet cover = index.cover(dnf, Integer.MAX_VALUE);
    for (Event e : INT_EVENTS) {
      assertThat(cover.covers(index.dz(e)))
          .as("%s against %s with cover %s", e, dnf, cover)
          .isEqualTo(ConjunctionMatch.matches(dnf, e));
    }
  }

  @Property(tries = 300)
  void tightestAtEveryLength(@ForAll long seed) {
    // Unlimited budget: an event's cell is covered iff some matching event shares it.
    SplittableRandom r = new SplittableRandom(seed);
    Dnf dnf = RandomFilters.dnf(INTS, r, 3, 3);
    SpatialIndex index = new SpatialIndex(INTS, 1 + r.nextInt(SpatialIndex.defaultLength(INTS)));
    DzSet cover = index.cover(dnf, Integer.MAX_VALUE);
    java.util.Set<Dz> matchedCells = new java.util.HashSet<>();
    for (Event e : INT_EVENTS) {
      if (ConjunctionMatch.matches(dnf, e)) {
        matchedCells.add(index.dz(e));
      }
    }
    for (Event e : INT_EVENTS) {
      Dz cell = index.dz(e);
      assertThat(cover.covers(cell))
          .as("%s (cell %s) against %s with cover %s", e, cell, dnf, cover)
          .isEqualTo(matchedCells.contains(cell));
    }
  }

  @Property(tries = 300)
  void aSmallerBudgetGivesASuperset(@ForAll long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Schema schema = VARIANTS.get(r.nextInt(VARIANTS.size()));
    Dnf dnf = RandomFilters.dnf(schema, r, 3, 3);
    SpatialIndex index = SpatialIndex.withDefaultLength(schema);
    DzSet fine = index.cover(dnf, Integer.MAX_VALUE);
    DzSet coarse = index.cover(dnf, 1 + r.nextInt(20));
    assertThat(coarse.intersect(fine)).isEqualTo(fine);
  }

  @Test
  void paperStockSubscriptions() {
    Schema stocks = SpatialIndexTest.STOCKS;
    SpatialIndex index = new SpatialIndex(stocks, 6);
    Dnf upper = dnf(TestConjunction.of(range(stocks, "P", 50, 99), range(stocks, "V", 50, 99)));
    assertThat(index.cover(upper)).isEqualTo(DzSet.of(Dz.parse("11")));
    Dnf lowerV = dnf(TestConjunction.of(range(stocks, "P", 50, 99), range(stocks, "V", 0, 49)));
    assertThat(index.cover(lowerV)).isEqualTo(DzSet.of(Dz.parse("10")));
    // P ≥ 50 is the upper half, whatever V is.
    assertThat(index.cover(dnf(TestConjunction.of(range(stocks, "P", 50, 1000)))))
        .isEqualTo(DzSet.of(Dz.parse("1")));
    // One value: the event's own cell.
    Dnf e1 = dnf(TestConjunction.of(range(stocks, "P", 65, 65), range(stocks, "V", 55, 55)));
    assertThat(index.cover(e1)).isEqualTo(DzSet.of(Dz.parse("110010")));
  }

  @Test
  void trueFalseAndContradictions() {
    SpatialIndex index = SpatialIndex.withDefaultLength(MIXED);
    assertThat(index.cover(dnf())).isEqualTo(DzSet.EMPTY);
    assertThat(index.cover(dnf(TestConjunction.of()))).isEqualTo(DzSet.ALL);
    Dnf clash = dnf(TestConjunction.of(TestConjunction.prefixes(MIXED, "s", "a", "b")));
    assertThat(index.cover(clash)).isEqualTo(DzSet.EMPTY);
    Dnf outside = dnf(TestConjunction.of(range(MIXED, "x", 10, 20)));
    assertThat(index.cover(outside)).isEqualTo(DzSet.EMPTY);
    Dnf nonIndex = dnf(TestConjunction.of(range(MIXED, "z", 1, 1)));
    assertThat(new SpatialIndex(MIXED.withIndex(List.of("x")), 3).cover(nonIndex))
        .isEqualTo(DzSet.ALL);
  }

  @Test
  void stringPrefixIsOneRange() {
    Schema s = Schema.builder("s").stringAttribute("name", 2).build();
    SpatialIndex index = new SpatialIndex(s, 16);
    Dnf a = dnf(TestConjunction.of(TestConjunction.prefixes(s, "name", "a")));
    assertThat(index.cover(a)).isEqualTo(DzSet.of(Dz.parse("01100001"))); // 'a' = 0x61
    Dnf eq = dnf(TestConjunction.of(TestConjunction.equalTo(s, "name", "ab")));
    assertThat(index.cover(eq)).isEqualTo(DzSet.of(Dz.parse("0110000101100010")));
    Dnf suffix = dnf(TestConjunction.of(TestConjunction.suffixes(s, "name", "b")));
    assertThat(index.cover(suffix)).isEqualTo(DzSet.ALL);
  }

  @Test
  void exclusionsBeyondTheLimitAreIgnoredNeverLost() {
    Schema w = Schema.builder("w").intAttribute("w", 0, 63).build();
    SpatialIndex index = SpatialIndex.withDefaultLength(w);
    long[] excluded = new long[20];
    for (int i = 0; i < excluded.length; i++) {
      excluded[i] = 2 + 3L * i;
    }
    Dnf holes = dnf(TestConjunction.of(range(w, "w", 1, 62, excluded)));
    DzSet cover = index.cover(holes, Integer.MAX_VALUE);
    for (long v = 0; v <= 63; v++) {
      boolean ignoredHole = v >= 2 + 3L * AcceptedRanges.MAX_EXCLUSIONS && (v - 2) % 3 == 0;
      boolean accepted = v >= 1 && v <= 62 && ((v - 2) % 3 != 0 || v < 2 || ignoredHole);
      Event e = Event.builder(w).set("w", v).build();
      assertThat(cover.covers(index.dz(e))).as("w = %d", v).isEqualTo(accepted);
    }
  }

  @Test
  void budgetOfOneGivesOneEnclosingCell() {
    SpatialIndex index = new SpatialIndex(SpatialIndexTest.STOCKS, 14);
    Dnf box =
        dnf(
            TestConjunction.of(
                range(SpatialIndexTest.STOCKS, "P", 60, 70),
                range(SpatialIndexTest.STOCKS, "V", 10, 90)));
    DzSet one = index.cover(box, 1);
    assertThat(one.size()).isEqualTo(1);
    DzSet many = index.cover(box, 1000);
    assertThat(many.size()).isGreaterThan(1).isLessThanOrEqualTo(1000);
    assertThat(one.intersect(many)).isEqualTo(many);
  }

  @Test
  void aLevelThatDoesNotFitIsSplitCellByCell() {
    // Stopping at the last whole level gives four cells that tile 100 (volume 1/8); splitting
    // the cells that still fit, one by one, does better within the same budget.
    Schema stocks = SpatialIndexTest.STOCKS;
    SpatialIndex index = new SpatialIndex(stocks, 14);
    Dnf box = dnf(TestConjunction.of(range(stocks, "P", 60, 70), range(stocks, "V", 0, 29)));
    DzSet four = index.cover(box, 4);
    assertThat(four.size()).isBetween(2, 4);
    assertThat(four.volume()).isLessThan(0.125);
    for (int p = 60; p <= 70; p++) {
      for (int v = 0; v < 30; v++) {
        assertThat(four.covers(index.dz(SpatialIndexTest.stock(p, v)))).isTrue();
      }
    }
  }

  @Test
  void manyConjunctionsAreCoarsenedIntoTheBudget() {
    Schema stocks = SpatialIndexTest.STOCKS;
    SpatialIndex index = new SpatialIndex(stocks, 14);
    List<org.netpubsub.content.filter.Conjunction> points = new java.util.ArrayList<>();
    for (int p = 0; p < 100; p += 7) {
      points.add(TestConjunction.of(range(stocks, "P", p, p), range(stocks, "V", p, p)));
    }
    Dnf dnf = new Dnf(points);
    DzSet cover = index.cover(dnf, 5);
    assertThat(cover.size()).isLessThanOrEqualTo(5);
    for (int p = 0; p < 100; p += 7) {
      assertThat(cover.covers(index.dz(SpatialIndexTest.stock(p, p)))).isTrue();
    }
  }

  /** The same values under a schema variant (same attributes, other index). */
  private static Event retype(Event e, Schema schema) {
    if (e.schema().equals(schema)) {
      return e;
    }
    Event.Builder b = Event.builder(schema);
    for (var a : schema.attributes()) {
      if (a instanceof org.netpubsub.content.schema.IntAttribute i) {
        b.set(i, e.intValue(i.position()));
      } else {
        b.set(a, e.stringValue(a.position()));
      }
    }
    return b.build();
  }
}
