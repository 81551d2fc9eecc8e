package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
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
 * FlowBudget against brute force over the N-bit points of {@link DzSetTest}: supersets within the
 * budget, and a single merge as cheap per saved cell as the best over every prefix of a member.
 */
class FlowBudgetTest {
  private static final int N = 8;

  @Provide
  Arbitrary<List<Dz>> dzLists() {
    return new DzSetTest().dzLists();
  }

  @Provide
  Arbitrary<List<Integer>> samples() {
    return Arbitraries.integers().between(0, (1 << N) - 1).list().ofMaxSize(60);
  }

  private static List<Dz> points(List<Integer> sample) {
    return sample.stream().map(DzSetTest::point).toList();
  }

  /** Sample points in {@code region} and not in {@code set}. */
  private static long admitted(BitSet region, BitSet set, List<Integer> sample) {
    return sample.stream().filter(p -> region.get(p) && !set.get(p)).count();
  }

  @Property(tries = 500)
  void coversEveryPointWithinTheBudget(
      @ForAll("dzLists") List<Dz> dzs,
      @ForAll("samples") List<Integer> sample,
      @ForAll @IntRange(min = 1, max = 24) int budget) {
    DzSet set = DzSet.of(dzs);
    DzSet merged = FlowBudget.merge(set, budget, points(sample));
    BitSet in = DzSetTest.points(set);
    BitSet out = DzSetTest.points(merged);
    BitSet lost = (BitSet) in.clone();
    lost.andNot(out);
    assertThat(lost.isEmpty()).as("%s lost points of %s", merged, set).isTrue();
    assertThat(merged.size()).isLessThanOrEqualTo(budget);
    if (set.size() <= budget) {
      assertThat(merged).isEqualTo(set);
    }
    for (Dz m : merged) { // every member is a member of the set or a prefix of some
      assertThat(set.members()).anyMatch(m::covers);
    }
  }

  /**
   * With one cell to save, the merge adds the sample points and volume of the cheapest prefix per
   * saved cell (over every prefix of a member, not only neighbours' common prefixes).
   */
  @Property(tries = 500)
  void oneMergeIsTheCheapestPerSavedCell(
      @ForAll("dzLists") List<Dz> dzs, @ForAll("samples") List<Integer> sample) {
    DzSet set = DzSet.of(dzs);
    if (set.size() < 2) {
      return;
    }
    BitSet in = DzSetTest.points(set);
    long bestCost = -1;
    long bestVolume = 0; // in N-bit points
    int bestSaved = 0;
    for (Dz prefix : prefixes(set)) {
      int under = (int) set.members().stream().filter(prefix::covers).count();
      if (under < 2) {
        continue;
      }
      BitSet added = DzSetTest.points(prefix);
      long cost = admitted(added, in, sample);
      added.andNot(in);
      long volume = added.cardinality();
      int saved = under - 1;
      long c = bestCost < 0 ? -1 : Long.compare(cost * bestSaved, bestCost * saved);
      c = c != 0 ? c : Long.compare(volume * bestSaved, bestVolume * saved);
      if (c < 0 || c == 0 && saved > bestSaved) {
        bestCost = cost;
        bestVolume = volume;
        bestSaved = saved;
      }
    }
    DzSet merged = FlowBudget.merge(set, set.size() - 1, points(sample));
    BitSet out = DzSetTest.points(merged);
    assertThat(admitted(out, in, sample)).isEqualTo(bestCost);
    out.andNot(in);
    assertThat(out.cardinality()).isEqualTo(bestVolume);
  }

  private static List<Dz> prefixes(DzSet set) {
    List<Dz> out = new ArrayList<>();
    for (Dz m : set) {
      for (int n = 0; n < m.length(); n++) {
        out.add(m.prefix(n));
      }
    }
    return out;
  }

  @Test
  void mergesWhereNoEventFalls() {
    // 000 and 011 merge to 0 at the cost of 001 and 010; 100 and 111 cost 101's sample point
    DzSet set = DzSet.of(Dz.parse("000"), Dz.parse("011"), Dz.parse("100"), Dz.parse("111"));
    DzSet merged = FlowBudget.merge(set, 3, List.of(Dz.parse("101")));
    assertThat(merged).hasToString("{0, 100, 111}");
    assertThat(FlowBudget.merge(set, 1, List.of())).hasToString("{ε}");
  }

  @Test
  void refusesABudgetBelowOne() {
    assertThatThrownBy(() -> FlowBudget.merge(DzSet.ALL, 0, List.of()))
        .hasMessageContaining("maxFlows");
  }
}
