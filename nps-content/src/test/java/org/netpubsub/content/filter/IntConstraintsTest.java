package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.content.schema.IntAttribute;

/** Int constraints against brute force over every value of small domains. */
class IntConstraintsTest {
  private static final IntAttribute SMALL = new IntAttribute("x", 0, 0, 7);

  /** A domain at the top of the long range, where careless +1 overflows. */
  private static final IntAttribute TOP =
      new IntAttribute("t", 0, Long.MAX_VALUE - 5, Long.MAX_VALUE);

  /** A demand: [low, high] minus some points, each possibly outside the domain. */
  record Demand(IntAttribute attribute, long low, long high, long[] excluded) {
    boolean holds(long v) {
      if (v < low || v > high) {
        return false;
      }
      for (long e : excluded) {
        if (e == v) {
          return false;
        }
      }
      return true;
    }

    IntConstraint canonical() {
      return IntConstraints.of(attribute, low, high, excluded);
    }
  }

  @Provide
  Arbitrary<Demand> demands() {
    return Arbitraries.oneOf(demands(SMALL), demands(TOP));
  }

  private static Arbitrary<Demand> demands(IntAttribute a) {
    // One below the domain too: demands may name values outside it.
    Arbitrary<Long> v = Arbitraries.longs().between(a.min() - 1, a.max());
    Arbitrary<long[]> ex =
        v.list().ofMaxSize(6).map(l -> l.stream().mapToLong(Long::longValue).toArray());
    return Combinators.combine(v, v, ex).as((lo, hi, e) -> new Demand(a, lo, hi, e));
  }

  private static List<Long> domain(IntAttribute a) {
    return java.util.stream.LongStream.rangeClosed(a.min(), a.max()).boxed().toList();
  }

  private static boolean accepts(IntConstraint c, long v) {
    return c != null && c.accepts(v);
  }

  @Property(tries = 500)
  void canonicalFormAcceptsExactlyTheDemandedValues(@ForAll("demands") Demand d) {
    IntConstraint c = d.canonical();
    boolean any = false;
    for (long v : domain(d.attribute())) {
      assertThat(accepts(c, v)).as("%s at %d", c, v).isEqualTo(d.holds(v));
      any |= d.holds(v);
    }
    assertThat(c == null).isEqualTo(!any);
    if (c != null) {
      // Canonical: endpoints allowed, excluded points sorted, distinct, strictly inside.
      assertThat(c.accepts(c.low()) && c.accepts(c.high())).isTrue();
      long previous = c.low();
      for (long e : c.excluded()) {
        assertThat(e).isGreaterThan(previous).isLessThan(c.high());
        previous = e;
      }
      assertThat(IntConstraints.isFull(c))
          .isEqualTo(domain(d.attribute()).stream().allMatch(c::accepts));
    }
  }

  @Property(tries = 500)
  void meetAndInclusionAreExact(@ForAll("demands") Demand x, @ForAll("demands") Demand y) {
    IntConstraint cx = x.canonical();
    IntConstraint cy = y.canonical();
    if (cx == null || cy == null || cx.attribute() != cy.attribute()) {
      return;
    }
    IntConstraint both = IntConstraints.meet(cx, cy);
    IntConstraint all = IntConstraints.meetAll(List.of(cx, cy));
    boolean subset = true;
    for (long v : domain(cx.attribute())) {
      assertThat(accepts(both, v)).isEqualTo(cx.accepts(v) && cy.accepts(v));
      assertThat(accepts(all, v)).isEqualTo(accepts(both, v));
      subset &= !cx.accepts(v) || cy.accepts(v);
    }
    assertThat(IntConstraints.isSubset(cx, cy)).as("%s in %s", cx, cy).isEqualTo(subset);
    if (both != null) {
      assertThat(IntConstraints.same(both, all)).isTrue();
      assertThat(IntConstraints.hash(both)).isEqualTo(IntConstraints.hash(all));
    }
  }
}
