package org.netpubsub.network.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.sim.SimulatedNetwork;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/** The k=4 fat tree (20 switches, 32 links, 16 hosts): all 240 pairs, and after any link fails. */
class FatTreeRoutingTest {
  private final Topology fatTree = TestTopologies.fatTree(4);

  @Test
  void everyPairReachesOverShortestPaths() {
    SimulatedNetwork net = SimulatedNetwork.of(fatTree);
    Reachability.install(net, fatTree);
    assertThat(Reachability.checkAllPairs(net, fatTree)).isEqualTo(240);
    // 3 control entries and one per host on every switch (every switch reaches every host).
    for (long dpid : fatTree.switches()) {
      assertThat(net.switchAt(dpid).flows()).hasSize(3 + 16);
    }
    FlowEntry sample = net.switchAt(0x300).flows().get(3);
    assertThat(sample.priority()).isEqualTo(UnicastRouting.PRIORITY_UNICAST);
  }

  @Test
  void everySingleLinkFailureIsRoutedAround() {
    SimulatedNetwork net = SimulatedNetwork.of(fatTree);
    for (Link down : fatTree.links()) {
      net.setLinkUp(down, false);
      Topology after = fatTree.removeLink(down);
      assertThat(after.isConnected()).isTrue();
      Reachability.install(net, after);
      assertThat(Reachability.checkAllPairs(net, after)).as("without %s", down).isEqualTo(240);
      net.setLinkUp(down, true);
    }
  }
}
