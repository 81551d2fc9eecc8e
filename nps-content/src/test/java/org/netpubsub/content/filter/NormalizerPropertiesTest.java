package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.content.event.Event;

/** The normal form against direct evaluation, and against brute force on small domains. */
class NormalizerPropertiesTest {
  private static final List<Event> MIXED_EVENTS = FilterArbitraries.sampleMixedEvents();
  private static final List<Event> SMALL_EVENTS = FilterArbitraries.allSmallIntEvents();

  @Provide
  Arbitrary<Filter> mixedFilters() {
    return FilterArbitraries.filters(FilterArbitraries.MIXED, 4);
  }

  @Provide
  Arbitrary<Filter> smallIntFilters() {
    return FilterArbitraries.filters(FilterArbitraries.SMALL_INTS, 4);
  }

  @Property(tries = 500)
  void normalFormMatchesTheSameEvents(@ForAll("mixedFilters") Filter filter) {
    Dnf dnf = Normalizer.toDnf(filter);
    for (Event e : MIXED_EVENTS) {
      assertThat(FilterEvaluator.matches(dnf, e))
          .as("%s on %s, normal form %s", FilterPrinter.print(filter), e, FilterPrinter.print(dnf))
          .isEqualTo(FilterEvaluator.matches(filter, e));
    }
  }

  @Property(tries = 300)
  void negationNormalFormMatchesTheSameEventsAndOnlyNegatesStringAtoms(
      @ForAll("mixedFilters") Filter filter) {
    Filter nnf = NegationNormalForm.of(filter);
    assertThat(negationsOnlyAboveStringAtoms(nnf)).as(nnf.toString()).isTrue();
    for (Event e : MIXED_EVENTS) {
      assertThat(FilterEvaluator.matches(nnf, e)).isEqualTo(FilterEvaluator.matches(filter, e));
    }
  }

  @Property(tries = 500)
  void normalFormIsFreeOfContradictionsAndSubsumption(@ForAll("smallIntFilters") Filter filter) {
    Dnf dnf = Normalizer.toDnf(filter);
    List<BitSet> sets = new ArrayList<>();
    for (Conjunction c : dnf.conjunctions()) {
      sets.add(satisfying(c));
    }
    BitSet union = new BitSet();
    for (int i = 0; i < sets.size(); i++) {
      assertThat(sets.get(i).isEmpty())
          .as("conjunction %s of %s is unsatisfiable", dnf.conjunctions().get(i), dnf)
          .isFalse();
      for (int j = 0; j < sets.size(); j++) {
        if (i != j) {
          BitSet rest = (BitSet) sets.get(i).clone();
          rest.andNot(sets.get(j));
          assertThat(rest.isEmpty())
              .as("%s is subsumed by %s", dnf.conjunctions().get(i), dnf.conjunctions().get(j))
              .isFalse();
        }
      }
      union.or(sets.get(i));
    }
    for (int k = 0; k < SMALL_EVENTS.size(); k++) {
      assertThat(union.get(k)).isEqualTo(FilterEvaluator.matches(filter, SMALL_EVENTS.get(k)));
    }
    // A constraint equal to the whole domain says nothing and must have been dropped.
    for (Conjunction c : dnf.conjunctions()) {
      for (AttributeConstraint a : c.constraints()) {
        assertThat(IntConstraints.isFull((IntConstraint) a)).isFalse();
      }
    }
  }

  @Property(tries = 300)
  void normalizingIsIdempotentThroughText(@ForAll("mixedFilters") Filter filter) {
    Dnf dnf = Normalizer.toDnf(filter);
    String text = FilterPrinter.print(dnf);
    Dnf again = Normalizer.toDnf(FilterParser.parse(FilterArbitraries.MIXED, text));
    assertThat(again).as(text).isEqualTo(dnf);
    assertThat(FilterPrinter.print(again)).isEqualTo(text);
  }

  @Property(tries = 200)
  void normalizingIsDeterministic(@ForAll("mixedFilters") Filter filter) {
    assertThat(FilterPrinter.print(Normalizer.toDnf(filter)))
        .isEqualTo(FilterPrinter.print(Normalizer.toDnf(filter)));
  }

  private static BitSet satisfying(Conjunction c) {
    BitSet out = new BitSet();
    Dnf single = new Dnf(List.of(c));
    for (int k = 0; k < SMALL_EVENTS.size(); k++) {
      out.set(k, FilterEvaluator.matches(single, SMALL_EVENTS.get(k)));
    }
    return out;
  }

  private static boolean negationsOnlyAboveStringAtoms(Filter f) {
    return switch (f) {
      case Filter.Not n ->
          n.operand() instanceof Filter.StringComparison s
              && (s.op() == Filter.StringOp.PREFIX
                  || s.op() == Filter.StringOp.SUFFIX
                  || s.op() == Filter.StringOp.CONTAINS);
      case Filter.And a ->
          a.operands().stream().allMatch(NormalizerPropertiesTest::negationsOnlyAboveStringAtoms);
      case Filter.Or o ->
          o.operands().stream().allMatch(NormalizerPropertiesTest::negationsOnlyAboveStringAtoms);
      default -> true;
    };
  }
}
