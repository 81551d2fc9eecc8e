package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.content.index.TestConjunction.dnf;
import static org.netpubsub.content.index.TestConjunction.range;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.schema.Schema;

/** Dimension selection by the variance of per-dimension matches (PLEROMA §III-C). */
class DimensionSelectorTest {
  static final Schema S =
      Schema.builder("s")
          .intAttribute("b", 0, 99)
          .intAttribute("a", 0, 99)
          .stringAttribute("c", 4)
          .build();

  @Test
  void theSelectiveDimensionRanksFirst() {
    // Subscriptions on a are narrow and spread out; on b they are wide (every event matches).
    SplittableRandom r = new SplittableRandom(1);
    List<Dnf> subs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      int lo = r.nextInt(90);
      subs.add(dnf(TestConjunction.of(range(S, "a", lo, lo + 9), range(S, "b", 0, 99))));
    }
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      events.add(
          Event.builder(S).set("a", r.nextInt(100)).set("b", r.nextInt(100)).set("c", "x").build());
    }
    List<DimensionScore> ranked = DimensionSelector.rank(S, subs, events);
    assertThat(ranked.get(0).attribute().name()).isEqualTo("a");
    assertThat(ranked.get(0).score()).isGreaterThan(0);
    // b and c are matched by every subscription for every event: variance 0, schema order.
    assertThat(ranked.subList(1, 3))
        .extracting(d -> d.attribute().name())
        .containsExactly("b", "c");
    assertThat(ranked.subList(1, 3)).allSatisfy(d -> assertThat(d.score()).isZero());
    assertThat(DimensionSelector.select(S, subs, events, 1)).containsExactly("a");
    assertThat(DimensionSelector.select(S, subs, events, 5)).containsExactly("a", "b", "c");
  }

  @Test
  void varianceIsOverEventsOfSubscriptionsMatchedAlongTheDimension() {
    // Two subscriptions on c: "x" and prefix "x". Events "x" match 2, "y" match 0 → m = {2, 0},
    // variance 1. Along a (unconstrained) every event matches both: variance 0.
    Dnf eqX = dnf(TestConjunction.of(TestConjunction.equalTo(S, "c", "x")));
    Dnf preX = dnf(TestConjunction.of(TestConjunction.prefixes(S, "c", "x")));
    List<Event> events =
        List.of(
            Event.builder(S).set("a", 1).set("b", 1).set("c", "x").build(),
            Event.builder(S).set("a", 1).set("b", 1).set("c", "y").build());
    List<DimensionScore> ranked = DimensionSelector.rank(S, List.of(eqX, preX), events);
    assertThat(ranked.get(0).attribute().name()).isEqualTo("c");
    assertThat(ranked.get(0).score()).isEqualTo(1.0);
  }

  @Test
  void aDisjunctionMatchesAlongADimensionIfAnyConjunctionDoes() {
    Dnf either =
        dnf(TestConjunction.of(range(S, "a", 0, 9)), TestConjunction.of(range(S, "b", 0, 9)));
    Event far = Event.builder(S).set("a", 50).set("b", 50).set("c", "").build();
    Event near = Event.builder(S).set("a", 5).set("b", 50).set("c", "").build();
    // Along a: "far" is accepted by the second conjunction (no constraint on a). So m_a = 1 always.
    assertThat(DimensionSelector.rank(S, List.of(either), List.of(far, near)))
        .allSatisfy(d -> assertThat(d.score()).isZero());
    assertThat(DimensionSelector.rank(S, List.of(), List.of())).hasSize(3);
  }
}
