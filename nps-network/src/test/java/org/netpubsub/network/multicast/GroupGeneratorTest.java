package org.netpubsub.network.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class GroupGeneratorTest {
  static Graph line(int n) {
    Graph.Builder b = Graph.builder(n);
    for (int i = 1; i < n; i++) {
      b.link(i - 1, i);
    }
    return b.build();
  }

  @Provide
  Arbitrary<Graph> graphs() {
    return MulticastArbitraries.graphs(3, 30);
  }

  @Property(tries = 200)
  void groupsAreDistinctBorderNodesOfTheAskedSizeWithoutTheRoot(
      @ForAll("graphs") Graph g,
      @ForAll @IntRange(min = 1, max = 40) int size,
      @ForAll boolean locality,
      @ForAll long seed) {
    List<Integer> border = IntStream.range(0, g.size()).filter(v -> v % 3 != 1).boxed().toList();
    if (size >= border.size()) {
      return;
    }
    MemberModel model = locality ? MemberModel.LOCALITY : MemberModel.RANDOM;
    GroupGenerator a = new GroupGenerator(g, border, size, model, seed);
    GroupGenerator b = new GroupGenerator(g, border, size, model, seed);
    for (int i = 0; i < 5; i++) {
      Group group = a.next();
      assertThat(b.next()).isEqualTo(group);
      assertThat(border).contains(group.root()).containsAll(group.members());
      assertThat(group.members()).hasSize(size).doesNotContain(group.root());
    }
  }

  /**
   * Locality against its naive twin on a line of 8: the law of the distance between the two members
   * of a size-2 group, by enumerating root, first member and weights e^(-2d), matches the drawn
   * groups' distances.
   */
  @Test
  void localityDrawsTheNextMemberWithWeightEToTheMinusTwoD() {
    int n = 8;
    double[] law = new double[n];
    for (int root = 0; root < n; root++) {
      for (int first = 0; first < n; first++) {
        if (first == root) {
          continue;
        }
        double total = 0;
        for (int c = 0; c < n; c++) {
          total += c == root || c == first ? 0 : Math.exp(-2.0 * Math.abs(c - first));
        }
        for (int c = 0; c < n; c++) {
          if (c != root && c != first) {
            law[Math.abs(c - first)] += Math.exp(-2.0 * Math.abs(c - first)) / total / n / (n - 1);
          }
        }
      }
    }
    List<Integer> all = IntStream.range(0, n).boxed().toList();
    GroupGenerator gen = new GroupGenerator(line(n), all, 2, MemberModel.LOCALITY, 42);
    int trials = 20_000;
    double[] seen = new double[n];
    for (int t = 0; t < trials; t++) {
      List<Integer> m = new ArrayList<>(gen.next().members());
      seen[Math.abs(m.get(0) - m.get(1))] += 1.0 / trials;
    }
    assertThat(law[1]).isGreaterThan(0.8); // e^-2 per hop: mostly neighbours
    for (int d = 1; d < n; d++) {
      assertThat(seen[d]).as("distance %d", d).isCloseTo(law[d], within(0.01));
    }
  }

  @Test
  void localityGroupsAreTighterThanRandomOnes() {
    Graph g = line(60);
    List<Integer> all = IntStream.range(0, 60).boxed().toList();
    assertThat(spread(new GroupGenerator(g, all, 10, MemberModel.LOCALITY, 7)))
        .isLessThan(spread(new GroupGenerator(g, all, 10, MemberModel.RANDOM, 7)) / 2);
  }

  private static double spread(GroupGenerator gen) {
    double sum = 0;
    for (int i = 0; i < 200; i++) {
      Set<Integer> m = gen.next().members();
      sum +=
          m.stream().mapToInt(x -> x).max().orElseThrow()
              - m.stream().mapToInt(x -> x).min().orElseThrow();
    }
    return sum / 200;
  }

  @Test
  void refusesGroupsLargerThanTheBorderAllows() {
    assertThatThrownBy(
            () -> new GroupGenerator(line(5), List.of(0, 1, 2), 3, MemberModel.RANDOM, 1))
        .hasMessageContaining("needs at least 4 border nodes")
        .hasMessageContaining("there are 3");
  }
}
