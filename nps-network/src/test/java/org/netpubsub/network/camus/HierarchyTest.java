package org.netpubsub.network.camus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/** Layers, up and down ports, and a clear reason for every topology that is no hierarchy. */
class HierarchyTest {
  private final Hierarchy fat = Hierarchy.of(FatTree.of(4));

  @Test
  void fatTreeLayers() {
    assertThat(fat.layerCount()).isEqualTo(3);
    assertThat(fat.layer(0)).containsExactly(13L, 14L, 15L, 16L, 17L, 18L, 19L, 20L);
    assertThat(fat.layer(1)).containsExactly(5L, 6L, 7L, 8L, 9L, 10L, 11L, 12L);
    assertThat(fat.layer(2)).containsExactly(1L, 2L, 3L, 4L);
    assertThat(fat.layerName(0)).isEqualTo("edge");
    assertThat(fat.layerName(1)).isEqualTo("aggregation");
    assertThat(fat.layerName(2)).isEqualTo("core");
    assertThat(fat.bottomUp()).hasSize(20).startsWith(13L).endsWith(4L);
  }

  @Test
  void fatTreePorts() {
    assertThat(fat.downPorts(13)).containsExactly(1L, 2L);
    assertThat(fat.upPorts(13)).containsExactly(3L, 4L);
    assertThat(fat.downPorts(5)).containsExactly(1L, 2L);
    assertThat(fat.upPorts(5)).containsExactly(3L, 4L);
    assertThat(fat.downPorts(1)).containsExactly(1L, 2L, 3L, 4L);
    assertThat(fat.upPorts(1)).isEmpty();
    assertThat(fat.isUpPort(new SwitchPort(13, 3))).isTrue();
    assertThat(fat.isUpPort(new SwitchPort(13, 1))).isFalse();
    assertThat(fat.peer(new SwitchPort(13, 3))).isEqualTo(new SwitchPort(5, 1));
  }

  @Test
  void hostsBelowAndVia() {
    // h1, h2 at s13; pod 0 is h1..h4; core s1's port 2 leads to pod 1 (h5..h8)
    assertThat(fat.below(13)).isEqualTo(bits(0, 1));
    assertThat(fat.below(5)).isEqualTo(bits(0, 1, 2, 3));
    assertThat(fat.below(1).cardinality()).isEqualTo(16);
    assertThat(fat.via(new SwitchPort(1, 2))).isEqualTo(bits(4, 5, 6, 7));
    assertThat(fat.via(new SwitchPort(13, 2))).isEqualTo(bits(1));
    BitSet rest = fat.via(new SwitchPort(13, 4));
    assertThat(rest.cardinality()).isEqualTo(14);
    assertThat(rest.intersects(bits(0, 1))).isFalse();
    assertThat(fat.hosts().get(0)).isEqualTo(FatTree.hostAddress(1));
    assertThat(fat.hostIndex(FatTree.hostAddress(16))).isEqualTo(15);
  }

  @Test
  void treesAndTestFatTreesAreHierarchies() {
    Hierarchy tree = Hierarchy.of(TestTopologies.tree(2, 3));
    assertThat(tree.layerCount()).isEqualTo(3);
    assertThat(tree.layer(2)).containsExactly(1L);
    Hierarchy two = Hierarchy.of(TestTopologies.tree(1, 2));
    assertThat(two.layerName(1)).isEqualTo("core");
    assertThat(Hierarchy.of(TestTopologies.fatTree(4)).layer(2)).hasSize(4);
    assertThat(Hierarchy.of(FatTree.of(6)).layer(1)).hasSize(18);
  }

  @Test
  void linkWithinALayer() {
    assertThatThrownBy(() -> Hierarchy.of(TestTopologies.linear(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not a hierarchical topology")
        .hasMessageContaining("joins two switches of one layer (edge)");
    Topology meshed = FatTree.of(4).addLink(Link.of(1, 9, 2, 9)); // core to core
    assertThatThrownBy(() -> Hierarchy.of(meshed)).hasMessageContaining("of one layer (core)");
  }

  @Test
  void twoDownPathsToOneHost() {
    // parallel links between an aggregation and an edge switch
    Topology parallel = FatTree.of(4).addLink(Link.of(5, 9, 13, 9));
    assertThatThrownBy(() -> Hierarchy.of(parallel))
        .hasMessageContaining("switch 5 reaches host fd6e:7073:1::1 through two of its down ports");
  }

  @Test
  void upNeighboursReachingDifferentHosts() {
    // s1 (h1) up to s3 and s4; s2 (h2) up to s3 only: s1's two up ports reach {h1,h2} and {h1}
    Topology t = TestTopologies.builder().link(1, 3).link(1, 4).link(2, 3).host(1).host(2).build();
    assertThatThrownBy(() -> Hierarchy.of(t))
        .hasMessageContaining(
            "the up ports of switch 1 lead to switches that reach different hosts");
  }

  @Test
  void aTopThatMissesHosts() {
    Topology t = TestTopologies.builder().link(1, 3).link(2, 4).host(1).host(2).build();
    assertThatThrownBy(() -> Hierarchy.of(t))
        .hasMessageContaining("switch 3 has no up port but reaches only 1 of the 2 hosts");
  }

  @Test
  void aFailedFatTreeLinkIsRejected() {
    // without s5–s1, core s1 no longer reaches pod 0
    Topology t = FatTree.of(4).removeLink(Link.of(5, 3, 1, 1));
    assertThatThrownBy(() -> Hierarchy.of(t)).hasMessageContaining("not a hierarchical topology");
  }

  @Test
  void noHostsLoopsAndStrays() {
    assertThatThrownBy(() -> Hierarchy.of(TestTopologies.builder().link(1, 2).build()))
        .hasMessageContaining("no hosts");
    Topology stray = TestTopologies.tree(1, 2).addSwitch(99, 1);
    assertThatThrownBy(() -> Hierarchy.of(stray))
        .hasMessageContaining("switch 99 is not connected to any host");
    Topology loop = TestTopologies.tree(1, 2).addLink(Link.of(1, 7, 1, 8));
    assertThatThrownBy(() -> Hierarchy.of(loop)).hasMessageContaining("loops back to switch 1");
  }

  @Test
  void unknownSwitchesAndHosts() {
    assertThatThrownBy(() -> fat.upPorts(99)).hasMessageContaining("no switch 99");
    assertThatThrownBy(() -> fat.hostIndex(TestTopologies.hostAddress(1)))
        .hasMessageContaining("no host");
  }

  static BitSet bits(int... i) {
    BitSet b = new BitSet();
    for (int x : i) {
      b.set(x);
    }
    return b;
  }
}
