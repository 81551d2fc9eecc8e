package org.netpubsub.network.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowModCommand;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * The simulated network with hand-written flows: forwarding over links, rewrites, packet-ins, loops
 * and storms, links and ports down, packet-outs, fast-failover liveness.
 */
class SimulatedNetworkTest {
  /** s1 - s2 - s3 in a line (s1:1-s2:1, s2:2-s3:1), h1 on s1:2, h2 on s2:3, h3 on s3:2. */
  private final Topology line = TestTopologies.linear(3);

  private final SimulatedNetwork net = SimulatedNetwork.of(line);
  private static final Ipv6Address H3 = TestTopologies.hostAddress(3);
  private static final PacketHeaders TO_H3 =
      PacketHeaders.udp6(TestTopologies.hostAddress(1), H3, 1000, 2000);

  private void add(long dpid, FlowEntry.Builder e) {
    assertThat(net.apply(dpid, FlowMod.add(e.build()))).isEmpty();
  }

  private static FlowEntry.Builder all(Action... actions) {
    return FlowEntry.builder().match(Match.ANY).apply(actions);
  }

  @Test
  void namesHostsInAddressOrderAndKnowsTheWiring() {
    assertThat(net.hostNames()).containsExactly("h1", "h2", "h3");
    assertThat(net.host("h3").attachment()).isEqualTo(SwitchPort.of(3, 2));
    assertThat(net.hostName(H3)).contains("h3");
    assertThat(net.switchAt(2).ports()).containsExactlyInAnyOrder(1L, 2L, 3L);
    assertThatThrownBy(() -> net.host("h9")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void followsFlowsOverLinksAndKeepsRewrites() {
    add(1, all(Action.output(1)));
    add(
        2,
        FlowEntry.builder()
            .match(Match.builder().ipv6().build())
            .apply(new Action.SetIpv6Dst(Ipv6Address.parse("2001:db8::99")), Action.output(2)));
    add(3, all(Action.output(2)));
    Trace t = net.send("h1", TO_H3);
    assertThat(t.reachesOnly("h3")).isTrue();
    assertThat(t.deliveries().get(0).headers().ipv6Dst())
        .isEqualTo(Ipv6Address.parse("2001:db8::99"));
    assertThat(t.packetIns()).isEmpty();
    assertThat(t.deliveries().get(0).links()).isEqualTo(2);
    assertThat(net.switchAt(2).flowStats().get(0).packetCount()).isEqualTo(1);
  }

  @Test
  void reportsPacketInsWithSwitchAndIngressPort() {
    add(1, all(Action.output(1)));
    add(2, all(new Action.Output(OfPort.CONTROLLER), Action.output(3)));
    Trace t = net.send("h1", TO_H3);
    assertThat(t.packetIns()).containsExactly(new Trace.PacketIn(2, 1, TO_H3, Payload.EMPTY));
    assertThat(t.reachesOnly("h2")).isTrue();
  }

  @Test
  void aLoopIsCutAfterMaxHopsAndReported() {
    add(1, all(Action.output(1)).priority(10));
    add(
        1,
        FlowEntry.builder()
            .priority(20)
            .match(Match.builder().inPort(1).build())
            .apply(new Action.Output(OfPort.IN_PORT)));
    add(2, all(new Action.Output(OfPort.IN_PORT)));
    Trace t = net.send("h1", TO_H3);
    assertThat(t.loop()).isTrue();
    assertThat(t.deliveries()).isEmpty();
    long lookups =
        java.util.stream.Stream.of(1L, 2L)
            .flatMap(s -> net.switchAt(s).flowStats().stream())
            .mapToLong(f -> f.packetCount())
            .sum();
    assertThat(lookups).isEqualTo(SimulatedNetwork.MAX_HOPS + 1);
  }

  @Test
  void aBroadcastStormInATriangleIsBoundedAndReported() {
    Topology triangle =
        TestTopologies.builder().link(1, 2).link(2, 3).link(3, 1).host(1).host(2).build();
    SimulatedNetwork n = SimulatedNetwork.of(triangle);
    for (long s = 1; s <= 3; s++) {
      assertThat(n.apply(s, FlowMod.add(all(new Action.Output(OfPort.ALL)).build()))).isEmpty();
    }
    Trace t = n.send("h1", TO_H3);
    assertThat(t.loop()).isTrue();
    assertThat(t.copiesPerHost().get("h2")).isGreaterThan(1);
  }

  @Test
  void downLinksAndPortsLoseCopies() {
    add(1, all(Action.output(1)));
    add(2, all(Action.output(2)));
    add(3, all(Action.output(2)));
    net.setLinkUp(Link.of(2, 2, 3, 1), false);
    Trace t = net.send("h1", TO_H3);
    assertThat(t.deliveries()).isEmpty();
    assertThat(t.lostAt()).containsExactly(SwitchPort.of(2, 2));
    net.setLinkUp(Link.of(2, 2, 3, 1), true);
    assertThat(net.send("h1", TO_H3).reachesOnly("h3")).isTrue();
    net.setPortUp(SwitchPort.of(3, 1), false); // the peer's end
    assertThat(net.send("h1", TO_H3).lostAt()).containsExactly(SwitchPort.of(2, 2));
    net.setPortUp(SwitchPort.of(3, 1), true);
    net.setPortUp(SwitchPort.of(1, 2), false); // the sender's own port
    assertThat(net.send("h1", TO_H3)).isEqualTo(new Trace(List.of(), List.of(), List.of(), false));
    assertThatThrownBy(() -> net.setLinkUp(Link.of(1, 2, 3, 2), false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void fastFailoverSeesLinkLiveness() {
    Topology square =
        TestTopologies.builder()
            .link(1, 2)
            .link(1, 3)
            .link(2, 4)
            .link(3, 4)
            .host(1)
            .host(4)
            .build();
    SimulatedNetwork n = SimulatedNetwork.of(square);
    GroupMod ff =
        GroupMod.add(
            new GroupEntry(
                1,
                GroupType.FF,
                List.of(
                    Bucket.watching(1, Action.output(1)), Bucket.watching(2, Action.output(2)))));
    assertThat(n.apply(1, ff)).isEmpty();
    assertThat(n.apply(1, FlowMod.add(all(Action.group(1)).build()))).isEmpty();
    assertThat(n.apply(2, FlowMod.add(all(Action.output(2)).build()))).isEmpty();
    assertThat(n.apply(3, FlowMod.add(all(Action.output(2)).build()))).isEmpty();
    assertThat(n.apply(4, FlowMod.add(all(Action.output(3)).build()))).isEmpty();
    assertThat(n.send("h1", TO_H3).reachesOnly("h2")).isTrue();
    n.setLinkUp(Link.of(1, 1, 2, 1), false);
    Trace t = n.send("h1", TO_H3);
    assertThat(t.reachesOnly("h2")).isTrue();
    assertThat(n.switchAt(3).flowStats().get(0).packetCount()).isEqualTo(1);
  }

  @Test
  void packetOutCrossesTheLinkOrReachesTheHostWithItsPayload() {
    add(
        2,
        FlowEntry.builder()
            .match(Match.builder().ethType(0x88cc).build())
            .apply(new Action.Output(OfPort.CONTROLLER)));
    PacketHeaders lldp = PacketHeaders.builder().ethType(0x88cc).build();
    Payload p = new Payload(new byte[] {1, 2, 3});
    Trace t = net.packetOut(1, 1, lldp, p);
    assertThat(t.packetIns())
        .containsExactly(new Trace.PacketIn(2, 1, lldp, new Payload(new byte[] {1, 2, 3})));
    Trace toHost = net.packetOut(1, 2, lldp, p);
    assertThat(toHost.deliveries()).containsExactly(new Trace.Delivery("h1", lldp, p, 0));
  }

  @Test
  void installReplacesEveryFlowAndRefusalsThrow() {
    add(1, all(Action.output(1)));
    FlowEntry e = all(Action.output(2)).build();
    net.install(Map.of(2L, List.of(e)));
    assertThat(net.switchAt(1).flows()).isEmpty();
    assertThat(net.switchAt(2).flows()).containsExactly(e);
    FlowEntry bad = FlowEntry.builder().match(Match.builder().ipv6Dst("::1/128").build()).build();
    assertThatThrownBy(() -> net.install(Map.of(1L, List.of(bad))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("OFPBMC_BAD_PREREQ");
    assertThatThrownBy(() -> net.install(Map.of(9L, List.of())))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void modifyThroughFlowModsReroutes() {
    add(1, all(Action.output(1)));
    add(2, all(Action.output(3)));
    assertThat(net.send("h1", TO_H3).reachesOnly("h2")).isTrue();
    FlowMod modify =
        FlowMod.builder(FlowModCommand.MODIFY).match(Match.ANY).apply(Action.output(2)).build();
    assertThat(net.apply(2, modify)).isEmpty();
    add(3, all(Action.output(2)));
    assertThat(net.send("h1", TO_H3).reachesOnly("h3")).isTrue();
  }
}
