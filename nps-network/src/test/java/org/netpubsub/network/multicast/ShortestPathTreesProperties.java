package org.netpubsub.network.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Trees on random connected graphs are trees of graph links over exactly the members' paths;
 * distances, tree depths and the rendezvous point agree with a Floyd–Warshall twin.
 */
class ShortestPathTreesProperties {
  record Case(Graph graph, int root, int rp, Set<Integer> members) {}

  @Provide
  Arbitrary<Case> cases() {
    return MulticastArbitraries.graphs(1, 30)
        .flatMap(
            g ->
                Combinators.combine(
                        Arbitraries.integers().between(0, g.size() - 1),
                        Arbitraries.integers().between(0, g.size() - 1),
                        Arbitraries.integers().between(0, g.size() - 1).set().ofMaxSize(12))
                    .as((root, rp, members) -> new Case(g, root, rp, members)));
  }

  /** All-pairs hop counts by Floyd–Warshall (-1: unreachable). */
  static int[][] naiveDistances(Graph g) {
    int n = g.size();
    int inf = Integer.MAX_VALUE / 4;
    int[][] d = new int[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        d[i][j] = i == j ? 0 : inf;
      }
      for (int w : g.neighbours(i)) {
        d[i][w] = 1;
      }
    }
    for (int k = 0; k < n; k++) {
      for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) {
          d[i][j] = Math.min(d[i][j], d[i][k] + d[k][j]);
        }
      }
    }
    for (int[] row : d) {
      for (int j = 0; j < n; j++) {
        row[j] = row[j] >= inf ? -1 : row[j];
      }
    }
    return d;
  }

  @Property(tries = 300)
  void directTreeIsAShortestPathTreeOverTheMembersPaths(@ForAll("cases") Case c) {
    MulticastTree t = ShortestPathTrees.direct(c.graph(), c.root(), c.members());
    checkTree(c.graph(), t, c.root(), c.members());
    int[][] d = naiveDistances(c.graph());
    assertThat(c.graph().distancesFrom(c.root())).containsExactly(d[c.root()]);
    for (int v : t.nodes()) {
      assertThat(depth(t, v)).isEqualTo(d[c.root()][v]);
    }
  }

  @Property(tries = 300)
  void rendezvousTreeIsATreeNoLongerThanGoingThroughTheRp(@ForAll("cases") Case c) {
    MulticastTree t = ShortestPathTrees.viaRendezvous(c.graph(), c.root(), c.rp(), c.members());
    checkTree(c.graph(), t, c.root(), c.members());
    int[][] d = naiveDistances(c.graph());
    for (int m : t.members()) {
      assertThat(depth(t, m)).isBetween(d[c.root()][m], d[c.root()][c.rp()] + d[c.rp()][m]);
    }
    if (c.rp() == c.root()) {
      assertThat(t).isEqualTo(ShortestPathTrees.direct(c.graph(), c.root(), c.members()));
    }
  }

  @Property(tries = 200)
  void rendezvousPointHasTheLeastTotalDistanceLowestIdOnTies(@ForAll("cases") Case c) {
    List<Integer> border = new ArrayList<>(c.members());
    if (border.isEmpty()) {
      border.add(c.root());
    }
    int[][] d = naiveDistances(c.graph());
    int best = -1;
    long bestSum = Long.MAX_VALUE;
    for (int v = 0; v < c.graph().size(); v++) {
      long sum = 0;
      for (int b : border) {
        sum += d[v][b];
      }
      if (sum < bestSum) {
        best = v;
        bestSum = sum;
      }
    }
    assertThat(ShortestPathTrees.rendezvousPoint(c.graph(), border)).isEqualTo(best);
  }

  /**
   * Every non-root node has one parent, a graph neighbour; chains reach the root; leaves are
   * members.
   */
  static void checkTree(Graph g, MulticastTree t, int root, Set<Integer> members) {
    Set<Integer> expected = new TreeSet<>(members);
    expected.remove(root);
    assertThat(t.root()).isEqualTo(root);
    assertThat(t.members()).containsExactlyElementsOf(expected);
    assertThat(t.nodes()).contains(root).containsAll(expected);
    assertThat(t.parent(root)).isEqualTo(-1);
    for (int v : t.nodes()) {
      if (v != root) {
        int p = t.parent(v);
        assertThat(g.neighbours(v)).contains(p);
        assertThat(t.children(p)).contains(v);
        assertThat(depth(t, v)).isPositive();
      }
      if (t.children(v).isEmpty() && v != root) {
        assertThat(t.members()).contains(v);
      }
      for (int child : t.children(v)) {
        assertThat(t.parent(child)).isEqualTo(v);
      }
    }
    int edges = t.nodes().stream().mapToInt(v -> t.children(v).size()).sum();
    assertThat(edges).isEqualTo(t.nodes().size() - 1);
  }

  static int depth(MulticastTree t, int v) {
    int d = 0;
    for (int x = v; x != t.root(); x = t.parent(x)) {
      assertThat(x).as("chain from %d leaves the tree", v).isNotNegative();
      assertThat(d).isLessThan(t.nodes().size());
      d++;
    }
    return d;
  }
}
