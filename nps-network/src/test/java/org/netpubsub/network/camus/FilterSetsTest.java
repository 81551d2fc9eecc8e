package org.netpubsub.network.camus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.TestTopologies;

/**
 * Algorithm 1 against its naive twin, the hierarchy's own reachability: a down port's set holds
 * exactly the hosts below it, and TR's up set exactly the hosts not below the switch.
 */
class FilterSetsTest {
  @Test
  void setsAreWhatThePortsReach() {
    List<Hierarchy> all =
        List.of(
            Hierarchy.of(FatTree.of(2)),
            Hierarchy.of(FatTree.of(4)),
            Hierarchy.of(FatTree.of(6)),
            Hierarchy.of(TestTopologies.tree(3, 2)),
            Hierarchy.of(TestTopologies.fatTree(4)));
    for (Hierarchy h : all) {
      FilterSets mr = FilterSets.compute(h, RoutingPolicy.MR);
      FilterSets tr = FilterSets.compute(h, RoutingPolicy.TR);
      for (long s : h.bottomUp()) {
        for (long p : h.downPorts(s)) {
          SwitchPort sp = new SwitchPort(s, p);
          assertThat(mr.down(sp)).as("%s", sp).isEqualTo(h.via(sp)).isEqualTo(tr.down(sp));
        }
        boolean top = h.upPorts(s).isEmpty();
        assertThat(mr.upIsTrue(s)).isEqualTo(!top);
        assertThat(mr.up(s).isEmpty()).isTrue();
        assertThat(tr.upIsTrue(s)).isFalse();
        BitSet beyond = top ? new BitSet() : h.via(new SwitchPort(s, h.upPorts(s).first()));
        assertThat(tr.up(s)).as("F_up of %d", s).isEqualTo(beyond);
        assertThat(tr.up(s).intersects(h.below(s))).isFalse();
      }
    }
  }

  /** Lines 17–23 as printed in the paper leave an edge switch blind to the other pods. */
  @Test
  void thePapersTrWouldMissOtherPods() {
    Hierarchy h = Hierarchy.of(FatTree.of(4));
    long edge = 13; // h1, h2 in pod 0
    SwitchPort q = h.peer(new SwitchPort(edge, h.upPorts(edge).first()));
    BitSet literal = new BitSet();
    for (long p : h.downPorts(q.dpid())) {
      if (p != q.port()) {
        literal.or(FilterSets.compute(h, RoutingPolicy.TR).down(new SwitchPort(q.dpid(), p)));
      }
    }
    assertThat(literal.cardinality()).as("only h3, h4 of pod 0").isEqualTo(2);
    assertThat(FilterSets.compute(h, RoutingPolicy.TR).up(edge).cardinality()).isEqualTo(14);
  }

  @Test
  void whereAHostsSubscriptionsAre() {
    Hierarchy h = Hierarchy.of(FatTree.of(4));
    var mr = FilterSets.compute(h, RoutingPolicy.MR).actionsFor(0); // h1
    // its edge switch (host port 1), both aggregation switches of pod 0, all four cores
    assertThat(mr)
        .containsExactly(
            java.util.Map.entry(1L, 1),
            java.util.Map.entry(2L, 1),
            java.util.Map.entry(3L, 1),
            java.util.Map.entry(4L, 1),
            java.util.Map.entry(5L, 1),
            java.util.Map.entry(6L, 1),
            java.util.Map.entry(13L, 1));
    var tr = FilterSets.compute(h, RoutingPolicy.TR).actionsFor(0);
    assertThat(tr).hasSize(20);
    assertThat(tr.get(20L)).isEqualTo(LocalRules.UP);
    assertThat(tr.get(7L)).isEqualTo(LocalRules.UP); // aggregation switch of pod 1
    assertThat(tr.get(14L)).isEqualTo(LocalRules.UP); // h1's pod neighbour edge
    assertThat(tr.get(5L)).isEqualTo(1);
  }
}
