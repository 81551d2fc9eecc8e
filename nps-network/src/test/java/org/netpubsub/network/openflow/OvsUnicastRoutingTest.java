package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.discovery.NdMessage;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * The base forwarding app's flows on a real Open vSwitch bridge: OVS accepts them (the icmpv6_type
 * match included), reports them back unchanged, and forwards LLDP, neighbour discovery, ping, UDP,
 * unknown destinations and IPv4 exactly as the simulated switch does. The middle switch of a line
 * of three: port 1 towards s1, port 2 towards s3, port 3 to host h2. Skipped with {@code
 * -Dnps.skipOvs=true}.
 */
class OvsUnicastRoutingTest {
  private static OvsBridge bridge;

  @BeforeAll
  static void startOvs() {
    Assumptions.assumeFalse(
        Boolean.getBoolean("nps.skipOvs"), "nps.skipOvs=true: Open vSwitch test skipped");
    OvsBridge.ensureRunning();
    bridge = OvsBridge.create(3, List.of(1, 2, 3));
  }

  @AfterAll
  static void deleteBridge() {
    if (bridge != null) {
      bridge.close();
    }
  }

  @Test
  void ovsForwardsLikeTheSimulatedSwitch() {
    Topology line = TestTopologies.linear(3);
    List<FlowEntry> flows = UnicastRouting.desiredFlows(line).get(2L);
    SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3).build();
    for (FlowEntry e : flows) {
      assertThat(sw.apply(FlowMod.add(e))).isEmpty();
      assertThat(bridge.apply(FlowMod.add(e))).as("%s", e).isEmpty();
    }
    assertThat(bridge.dumpFlows()).containsExactlyInAnyOrderElementsOf(flows);

    Ipv6Address h1 = TestTopologies.hostAddress(1);
    Ipv6Address h3 = TestTopologies.hostAddress(3);
    List<PacketHeaders> packets = new ArrayList<>();
    packets.add(PacketHeaders.builder().ethType(PacketHeaders.ETH_TYPE_LLDP).build());
    packets.add(PacketHeaders.icmp6(h1, NdMessage.solicitedNode(h3), 135));
    packets.add(PacketHeaders.icmp6(h3, h1, 136));
    packets.add(PacketHeaders.icmp6(h1, h3, 128));
    packets.add(PacketHeaders.builder().ethType(PacketHeaders.ETH_TYPE_IPV4).ipProto(17).build());
    for (int i = 1; i <= 4; i++) { // host 4 is unknown
      packets.add(PacketHeaders.udp6(h1, TestTopologies.hostAddress(i), 4000, 5000));
    }
    int forwarded = 0;
    int punted = 0;
    for (long in = 1; in <= 3; in++) {
      for (PacketHeaders h : packets) {
        Forwarding ovs =
            OvsTraceParser.parse(bridge.trace(in, h, 1), h, bridge.datapathToOpenFlow());
        assertThat(ovs).as("in_port=%d %s", in, h).isEqualTo(sw.forward(in, h));
        forwarded += ovs.isDrop() ? 0 : 1;
        punted += ovs.reaches(OfPort.CONTROLLER) ? 1 : 0;
      }
    }
    assertThat(punted).isEqualTo(3 * 3); // LLDP, NS, NA from every port
    assertThat(forwarded).isGreaterThan(punted);
  }
}
