package org.netpubsub.compiler.domain;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** IntervalSet against a naive bit set over [0, 63], and at the unsigned top of 64 bits. */
class IntervalSetProperties {
  static final long MAX = 63;

  @Provide
  Arbitrary<List<Long>> points() {
    return Arbitraries.longs().between(0, MAX).list().ofMaxSize(20);
  }

  private static IntervalSet build(List<Long> xs, BitSet model) {
    IntervalSet s = IntervalSet.empty();
    for (int i = 0; i + 1 < xs.size(); i += 2) {
      long lo = Math.min(xs.get(i), xs.get(i + 1));
      long hi = Math.max(xs.get(i), xs.get(i + 1));
      s = s.union(IntervalSet.range(lo, hi));
      model.set((int) lo, (int) hi + 1);
    }
    return s;
  }

  private static void assertModel(IntervalSet s, BitSet model) {
    for (long v = 0; v <= MAX; v++) {
      assertThat(s.contains(v)).as("%d in %s", v, s).isEqualTo(model.get((int) v));
    }
    assertThat(s.size()).isEqualTo(model.cardinality());
    for (int i = 0; i + 1 < s.intervals(); i++) {
      assertThat(s.hi(i) + 1).as("merged and sorted: %s", s).isLessThan(s.lo(i + 1));
    }
  }

  @Property
  void setAlgebraMatchesBitSets(@ForAll("points") List<Long> a, @ForAll("points") List<Long> b) {
    BitSet ma = new BitSet();
    BitSet mb = new BitSet();
    IntervalSet sa = build(a, ma);
    IntervalSet sb = build(b, mb);
    assertModel(sa, ma);
    BitSet u = (BitSet) ma.clone();
    u.or(mb);
    assertModel(sa.union(sb), u);
    BitSet in = (BitSet) ma.clone();
    in.and(mb);
    assertModel(sa.intersect(sb), in);
    BitSet minus = (BitSet) ma.clone();
    minus.andNot(mb);
    assertModel(sa.minus(sb), minus);
    BitSet not = (BitSet) ma.clone();
    not.flip(0, (int) MAX + 1);
    assertModel(sa.complement(MAX), not);
    assertThat(sa.union(sb)).isEqualTo(sb.union(sa));
  }

  @Test
  void unsignedTopOf64Bits() {
    long top = -1L; // 2^64 − 1
    IntervalSet high = IntervalSet.range(Long.MIN_VALUE, top); // [2^63, 2^64 − 1]
    assertThat(high.contains(-5L)).isTrue();
    assertThat(high.contains(5L)).isFalse();
    IntervalSet low = IntervalSet.range(0, Long.MAX_VALUE);
    assertThat(low.union(high).isAll(top)).isTrue();
    assertThat(high.complement(top)).isEqualTo(low);
    assertThat(IntervalSet.all(top).minus(IntervalSet.point(top)))
        .isEqualTo(IntervalSet.range(0, -2L));
    assertThat(IntervalSet.range(top, top).union(IntervalSet.range(top - 1, top - 1)))
        .isEqualTo(IntervalSet.range(-2L, top));
    assertThat(IntervalSet.range(5, 3).isEmpty()).isTrue();
  }

  @Test
  void discretizationWidensOutwardsOnly() {
    Discretizer d = new Discretizer(10);
    assertThat(d.widen(IntervalSet.range(54, 1023), 1023)).isEqualTo(IntervalSet.range(50, 1023));
    assertThat(d.widen(IntervalSet.range(0, 56), 1023)).isEqualTo(IntervalSet.range(0, 59));
    assertThat(d.widen(IntervalSet.range(20, 29), 1023)).isEqualTo(IntervalSet.range(20, 29));
    assertThat(d.widen(IntervalSet.range(1015, 1020), 1023))
        .isEqualTo(IntervalSet.range(1010, 1023));
    // 64-bit: the block of the top value is clipped, never wrapped
    assertThat(d.widen(IntervalSet.point(-3L), -1L)).isEqualTo(IntervalSet.range(-6L, -1L));
  }

  @Property
  void discretizationIsAnAlignedSuperset(
      @ForAll("points") List<Long> a,
      @ForAll @net.jqwik.api.constraints.LongRange(min = 1, max = 20) long alpha) {
    IntervalSet s = build(a, new BitSet());
    IntervalSet w = new Discretizer(alpha).widen(s, MAX);
    assertThat(w.intersect(s)).isEqualTo(s);
    for (int i = 0; i < w.intervals(); i++) {
      assertThat(w.lo(i) % alpha).isZero();
      assertThat(w.hi(i) == MAX || (w.hi(i) + 1) % alpha == 0).as("%s", w).isTrue();
    }
  }
}
