package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * DzSet against a brute-force twin: every dz of length ≤ N expanded to the set of N-bit points it
 * contains.
 */
class DzSetTest {
  private static final int N = 8;

  @Provide
  Arbitrary<List<Dz>> dzLists() {
    Arbitrary<Dz> dz =
        Arbitraries.strings().withChars('0', '1').ofMinLength(0).ofMaxLength(N).map(Dz::parse);
    // Mostly long dz, so that sets are not always swallowed by a short one.
    Arbitrary<Dz> deep =
        Arbitraries.strings().withChars('0', '1').ofMinLength(N - 3).ofMaxLength(N).map(Dz::parse);
    return Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(1, dz), net.jqwik.api.Tuple.of(4, deep))
        .list()
        .ofMaxSize(24);
  }

  /** The N-bit points a dz contains. */
  static BitSet points(Dz dz) {
    BitSet s = new BitSet(1 << N);
    int base = dz.length() == 0 ? 0 : (int) (dz.hi() >>> (64 - N));
    int span = 1 << (N - dz.length());
    s.set(base, base + span);
    return s;
  }

  static BitSet points(Iterable<Dz> dzs) {
    BitSet s = new BitSet(1 << N);
    for (Dz d : dzs) {
      s.or(points(d));
    }
    return s;
  }

  static Dz point(int p) {
    return Dz.of((long) p << (64 - N), 0, N);
  }

  static void assertNormalized(DzSet set) {
    List<Dz> m = set.members();
    assertThat(m).isSortedAccordingTo(Dz::compareTo);
    for (int i = 0; i < m.size(); i++) {
      for (int j = 0; j < m.size(); j++) {
        if (i != j) {
          assertThat(m.get(i).covers(m.get(j))).as("%s covers %s", m.get(i), m.get(j)).isFalse();
          if (m.get(i).length() > 0) {
            assertThat(m.get(j)).as("siblings in %s", set).isNotEqualTo(m.get(i).sibling());
          }
        }
      }
    }
  }

  @Test
  void paperSubscriptionSet() {
    DzSet sub1 = DzSet.of(Dz.parse("110"), Dz.parse("100"));
    assertThat(sub1.members()).containsExactly(Dz.parse("100"), Dz.parse("110"));
    assertThat(sub1.covers(Dz.parse("110010"))).isTrue();
    assertThat(sub1.covers(Dz.parse("101101"))).isFalse();
    assertThat(sub1.volume()).isEqualTo(0.25);
    assertThat(DzSet.of(Dz.parse("10"), Dz.parse("11"), Dz.parse("011"))).hasToString("{011, 1}");
  }

  @Property(tries = 500)
  void normalFormNamesTheSamePoints(@ForAll("dzLists") List<Dz> dzs) {
    DzSet set = DzSet.of(dzs);
    assertNormalized(set);
    assertThat(points(set)).isEqualTo(points(dzs));
    assertThat(set.volume()).isEqualTo(points(dzs).cardinality() / (double) (1 << N));
    for (int p = 0; p < 1 << N; p++) {
      assertThat(set.covers(point(p))).isEqualTo(points(dzs).get(p));
    }
  }

  @Property(tries = 500)
  void equalPointsMeanEqualSets(@ForAll("dzLists") List<Dz> a, @ForAll("dzLists") List<Dz> b) {
    // The normal form is unique, so building the same points two ways gives equal sets.
    DzSet x = DzSet.of(a);
    DzSet viaUnion = DzSet.of(a).union(DzSet.of(b));
    DzSet viaList = DzSet.of(concat(b, a));
    assertThat(viaUnion).isEqualTo(viaList).hasSameHashCodeAs(viaList);
    assertThat(x.equals(DzSet.of(b))).isEqualTo(points(a).equals(points(b)));
  }

  @Property(tries = 500)
  void unionAndIntersectAreSetOperations(
      @ForAll("dzLists") List<Dz> a, @ForAll("dzLists") List<Dz> b) {
    DzSet x = DzSet.of(a);
    DzSet y = DzSet.of(b);
    BitSet union = points(a);
    union.or(points(b));
    BitSet both = points(a);
    both.and(points(b));
    assertThat(points(x.union(y))).isEqualTo(union);
    assertNormalized(x.intersect(y));
    assertThat(points(x.intersect(y))).isEqualTo(both);
    assertThat(x.intersect(y)).isEqualTo(y.intersect(x));
  }

  @Property(tries = 500)
  void intersectWithOneDzIsASetOperation(
      @ForAll("dzLists") List<Dz> a, @ForAll("dzLists") List<Dz> b) {
    // one dz (a partition, a partial advertisement) against a set it may cover: the shortcut
    // (a prefix of b's first member, of a length a chooses: often covering all of b, or none)
    Dz first = b.isEmpty() ? Dz.EMPTY : b.get(0);
    DzSet one = DzSet.of(first.prefix(a.size() % (first.length() + 1)));
    DzSet y = DzSet.of(b);
    BitSet both = points(one);
    both.and(points(b));
    assertNormalized(one.intersect(y));
    assertThat(points(one.intersect(y))).isEqualTo(both);
    assertThat(y.intersect(one)).isEqualTo(one.intersect(y));
  }

  @Property(tries = 300)
  void coarsenKeepsEveryPointWithinTheBudget(
      @ForAll("dzLists") List<Dz> a, @ForAll @IntRange(min = 1, max = 10) int max) {
    DzSet x = DzSet.of(a);
    DzSet c = x.coarsen(max);
    assertNormalized(c);
    assertThat(c.size()).isLessThanOrEqualTo(max);
    BitSet lost = points(x);
    lost.andNot(points(c));
    assertThat(lost.isEmpty()).as("coarsen dropped points").isTrue();
    if (x.size() <= max) {
      assertThat(c).isEqualTo(x);
    }
    assertThat(c).isEqualTo(coarsenOneBitAtATime(x, max));
  }

  /** The naive twin: cut the longest members by one bit until the set fits. */
  private static DzSet coarsenOneBitAtATime(DzSet set, int max) {
    DzSet cur = set;
    while (cur.size() > max) {
      int longest = cur.maxLength();
      cur =
          DzSet.of(
              cur.members().stream()
                  .map(d -> d.length() == longest ? d.prefix(longest - 1) : d)
                  .toList());
    }
    return cur;
  }

  @Property(tries = 300)
  void differenceIsSetDifference(@ForAll("dzLists") List<Dz> a, @ForAll("dzLists") List<Dz> b) {
    if (a.isEmpty() || b.isEmpty()) {
      return;
    }
    Dz x = a.get(0);
    Dz y = b.get(0);
    BitSet expected = points(x);
    expected.andNot(points(y));
    assertThat(points(x.difference(y))).isEqualTo(expected);
    assertThat(DzSet.of(x.difference(y)).size()).isEqualTo(x.difference(y).size());
  }

  private static List<Dz> concat(List<Dz> a, List<Dz> b) {
    return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
  }
}
