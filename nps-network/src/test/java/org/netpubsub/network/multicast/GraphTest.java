package org.netpubsub.network.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GraphTest {
  @Test
  void linksAreIdempotentAndKeepInsertionOrder() {
    Graph g = Graph.builder(4).link(0, 2).link(0, 1).link(2, 0).link(1, 0).link(3, 0).build();
    assertThat(g.neighbours(0)).containsExactly(2, 1, 3);
    assertThat(g.neighbours(2)).containsExactly(0);
    assertThat(g.links()).isEqualTo(3);
    assertThat(g.degree(0)).isEqualTo(3);
  }

  @Test
  void refusesSelfLoopsAndNodesOutOfRange() {
    Graph.Builder b = Graph.builder(3);
    assertThatThrownBy(() -> b.link(1, 1)).hasMessageContaining("self-loop");
    assertThatThrownBy(() -> b.link(0, 3)).hasMessageContaining("0..2");
    assertThatThrownBy(() -> b.link(-1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> b.build().distancesFrom(5)).hasMessageContaining("not in 0..2");
  }

  @Test
  void distancesAreHopCountsAndMinusOneWhenUnreachable() {
    Graph g = Graph.builder(5).link(0, 1).link(1, 2).link(0, 2).link(3, 4).build();
    assertThat(g.distancesFrom(0)).containsExactly(0, 1, 1, -1, -1);
    assertThat(g.distancesFrom(4)).containsExactly(-1, -1, -1, 1, 0);
  }

  @Test
  void largestComponentRenumberedInOrder() {
    Graph g = Graph.builder(6).link(0, 5).link(1, 2).link(2, 3).link(3, 1).link(4, 3).build();
    List<Integer> big = g.largestComponent();
    assertThat(big).containsExactly(1, 2, 3, 4);
    Graph sub = g.induced(big);
    assertThat(sub.size()).isEqualTo(4);
    assertThat(sub.links()).isEqualTo(4);
    assertThat(sub.neighbours(2)).containsExactly(1, 0, 3); // node 3: links to 2, 1, 4 in order
    assertThat(Graph.builder(4).link(0, 1).link(2, 3).build().largestComponent())
        .containsExactly(0, 1);
  }

  @Test
  void multicastTreeOfPrunesStrayNodesAndRefusesBrokenParents() {
    MulticastTree t = MulticastTree.of(0, Set.of(2), Map.of(1, 0, 2, 1, 3, 0));
    assertThat(t.nodes()).containsExactly(0, 1, 2);
    assertThat(t.children(0)).containsExactly(1);
    assertThat(t.children(3)).isEmpty();
    assertThat(t.parent(3)).isEqualTo(-1);
    assertThatThrownBy(() -> MulticastTree.of(0, Set.of(2), Map.of(2, 1)))
        .hasMessageContaining("no path to root 0");
    assertThatThrownBy(() -> MulticastTree.of(0, Set.of(2), Map.of(2, 1, 1, 2)))
        .hasMessageContaining("cycle");
  }

  @Test
  void rendezvousGraftsWhereTheMembersPathMeetsTheRootsPath() {
    // 0 - 1 - 2 (rp) and 1 - 3: member 3's path from the rp runs back through 1, so it hangs off 1
    Graph g = Graph.builder(4).link(0, 1).link(1, 2).link(1, 3).build();
    MulticastTree t = ShortestPathTrees.viaRendezvous(g, 0, 2, Set.of(3));
    assertThat(t.nodes()).containsExactly(0, 1, 3);
    assertThat(t.parent(3)).isEqualTo(1);
    MulticastTree both = ShortestPathTrees.viaRendezvous(g, 0, 2, Set.of(2, 3));
    assertThat(both.children(1)).containsExactly(2, 3);
    assertThat(ShortestPathTrees.rendezvousPoint(g, List.of(0, 2, 3))).isEqualTo(1);
  }

  @Test
  void unreachableMembersAreRefused() {
    Graph g = Graph.builder(3).link(0, 1).build();
    assertThatThrownBy(() -> ShortestPathTrees.direct(g, 0, Set.of(2)))
        .hasMessageContaining("member 2 is unreachable from 0");
  }
}
