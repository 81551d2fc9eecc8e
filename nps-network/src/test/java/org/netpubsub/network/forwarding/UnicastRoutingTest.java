package org.netpubsub.network.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.discovery.LldpFrame;
import org.netpubsub.network.discovery.NdCodec;
import org.netpubsub.network.discovery.NdMessage;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.sim.Payload;
import org.netpubsub.network.sim.SimulatedNetwork;
import org.netpubsub.network.sim.Trace;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/** The base app's flows: their exact shape, and what they do on a simulated network. */
class UnicastRoutingTest {
  /** s1:1-s2:1, s2:2-s3:1; h1 at s1:2, h2 at s2:3, h3 at s3:2. */
  private final Topology line = TestTopologies.linear(3);

  private final SimulatedNetwork net = SimulatedNetwork.of(line);
  private static final Ipv6Address A1 = TestTopologies.hostAddress(1);
  private static final Ipv6Address A3 = TestTopologies.hostAddress(3);

  private static List<String> text(List<FlowEntry> flows) {
    return flows.stream().map(FlowEntry::toString).toList();
  }

  @Test
  void flowsOfEverySwitchInOvsSyntax() {
    Map<Long, List<FlowEntry>> flows = UnicastRouting.desiredFlows(line);
    assertThat(flows.keySet()).containsExactly(1L, 2L, 3L);
    String c = "table=0,priority=%d,cookie=0x4e50530000000001,";
    List<String> control =
        List.of(
            c.formatted(60000) + "dl_type=0x88cc,actions=CONTROLLER:65535",
            c.formatted(50000) + "icmp6,icmpv6_type=135,actions=CONTROLLER:65535",
            c.formatted(50000) + "icmp6,icmpv6_type=136,actions=CONTROLLER:65535");
    String u = c.formatted(10000) + "ipv6,ipv6_dst=2001:db8::%d,actions=output:%d";
    assertThat(text(flows.get(2L)))
        .containsExactlyElementsOf(
            concat(control, u.formatted(1, 1), u.formatted(2, 3), u.formatted(3, 2)));
    assertThat(text(flows.get(1L)))
        .containsExactlyElementsOf(
            concat(control, u.formatted(1, 2), u.formatted(2, 1), u.formatted(3, 1)));
  }

  private static List<String> concat(List<String> a, String... b) {
    List<String> out = new java.util.ArrayList<>(a);
    out.addAll(List.of(b));
    return out;
  }

  @Test
  void switchesWithoutHostsGetTheControlFlowsOnly() {
    Topology bare = Topology.EMPTY.addLink(Link.of(1, 1, 2, 1));
    // Map.of iterates in no fixed order: compare as maps, not entry sequences.
    assertThat(UnicastRouting.desiredFlows(bare))
        .isEqualTo(Map.of(1L, UnicastRouting.controlFlows(), 2L, UnicastRouting.controlFlows()));
    assertThat(UnicastRouting.desiredFlows(Topology.EMPTY)).isEmpty();
  }

  @Test
  void neighbourDiscoveryAndLldpGoToTheControllerNotToHosts() {
    net.install(UnicastRouting.desiredFlows(line));
    NdMessage ns = NdMessage.solicitation(TestTopologies.hostMac(1), A1, A3);
    Payload frame = new Payload(NdCodec.encode(ns));
    Trace t = net.send("h1", ns.headers(), frame);
    assertThat(t.deliveries()).isEmpty();
    assertThat(t.packetIns()).containsExactly(new Trace.PacketIn(1, 2, ns.headers(), frame));
    // A unicast NS (neighbour unreachability detection) is punted too, not routed.
    assertThat(net.send("h1", PacketHeaders.icmp6(A1, A3, 135)).packetIns()).hasSize(1);
    Trace lldp = net.packetOut(1, 1, LldpFrame.headers(), Payload.EMPTY);
    assertThat(lldp.packetIns()).extracting(Trace.PacketIn::dpid).containsExactly(2L);
  }

  @Test
  void reactiveForwardingSendsEveryMissToTheControllerAndRoutesNothing() {
    net.install(UnicastRouting.reactiveFlows(line));
    Trace t = net.send("h1", PacketHeaders.udp6(A1, A3, 5000, 5001));
    assertThat(t.deliveries()).isEmpty();
    assertThat(t.packetIns()).hasSize(1);
    assertThat(t.packetIns().get(0).dpid()).isEqualTo(1L);
    assertThat(UnicastRouting.reactiveFlows(line).get(2L))
        .containsAll(UnicastRouting.controlFlows())
        .anyMatch(f -> f.priority() == UnicastRouting.PRIORITY_MISS);
  }

  @Test
  void pingIsRoutedAndOtherTrafficMisses() {
    net.install(UnicastRouting.desiredFlows(line));
    assertThat(net.send("h1", PacketHeaders.icmp6(A1, A3, 128)).reachesOnly("h3")).isTrue();
    Trace unknown = net.send("h1", PacketHeaders.udp6(A1, Ipv6Address.parse("2001:db8::77"), 1, 2));
    assertThat(unknown.deliveries()).isEmpty();
    assertThat(unknown.packetIns()).isEmpty();
    Trace ipv4 = net.send("h1", PacketHeaders.builder().ethType(0x0800).ipProto(17).build());
    assertThat(ipv4.deliveries()).isEmpty();
  }

  @Test
  void aLinkDownReroutesAroundItOnceRecomputed() {
    Topology ring =
        TestTopologies.builder()
            .link(1, 2)
            .link(2, 3)
            .link(3, 4)
            .link(4, 1)
            .host(1)
            .host(3)
            .build();
    SimulatedNetwork n = SimulatedNetwork.of(ring);
    n.install(UnicastRouting.desiredFlows(ring));
    assertThat(Reachability.checkAllPairs(n, ring)).isEqualTo(2);
    Link used = ring.shortestPath(1, 3).orElseThrow().hops().get(0).link();
    n.setLinkUp(used, false);
    assertThat(
            n.send("h1", PacketHeaders.udp6(A1, TestTopologies.hostAddress(2), 1, 2)).deliveries())
        .isEmpty();
    Topology after = ring.removeLink(used);
    n.install(UnicastRouting.desiredFlows(after));
    assertThat(Reachability.checkAllPairs(n, after)).isEqualTo(2);
  }
}
