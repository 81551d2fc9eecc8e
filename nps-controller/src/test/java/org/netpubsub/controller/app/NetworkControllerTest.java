package org.netpubsub.controller.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.nbi.DistributionMode;
import org.netpubsub.controller.nbi.RemoteAppClient;
import org.netpubsub.controller.nbi.RemoteAppEndpoints;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.Cabling;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.discovery.NdCodec;
import org.netpubsub.network.discovery.NdMessage;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;

/**
 * The controller against simulated switches over TCP, wired by a relay in the test: a packet-out
 * from port p of one switch comes in as a packet-in at the cabled peer port. Discovery finds the
 * cabling, hosts are learned from ND, the switches end up holding the desired flows, and a port
 * going down removes its link and reroutes.
 */
class NetworkControllerTest {
  private static final Duration T = Duration.ofSeconds(10);

  private NetworkController controller;
  private final Map<Long, SimulatedOpenFlowSwitch> switches = new HashMap<>();
  private final Cabling cabling = new Cabling(switches);

  @BeforeEach
  void start() throws Exception {
    controller =
        NetworkController.start(
            ControllerConfig.defaults()
                .withPort("127.0.0.1", 0)
                .withProbeInterval(200)
                .withNorthbound(DistributionMode.CLASSIFIED, RemoteAppEndpoints.loopback()));
    // A triangle 1-2-3 plus host ports 9.
    cabling.cable(1, 1, 2, 1).cable(2, 2, 3, 1).cable(3, 2, 1, 2);
    InetSocketAddress at = controller.openflowAddress();
    for (long dpid = 1; dpid <= 3; dpid++) {
      SimulatedOpenFlowSwitch sw =
          SimulatedOpenFlowSwitch.builder().dpid(dpid).ports(1, 2, 9).build();
      switches.put(dpid, sw);
      sw.connect(new InetSocketAddress("127.0.0.1", at.getPort())).get();
    }
  }

  @AfterEach
  void stop() {
    switches.values().forEach(SimulatedOpenFlowSwitch::close);
    if (controller != null) {
      controller.close();
    }
  }

  private void relay() {
    cabling.relay();
  }

  private boolean holdsDesired(long dpid) {
    List<FlowEntry> want = controller.desiredFlows(dpid);
    return !want.isEmpty()
        && new java.util.HashSet<>(switches.get(dpid).flows())
            .equals(new java.util.HashSet<>(want));
  }

  @Test
  void discoversLinksLearnsHostsInstallsRoutesAndReroutes() {
    Wait.until("three links", T, this::relay, () -> controller.topology().links().size() == 3);
    assertThat(controller.topology().links())
        .containsExactlyInAnyOrder(Link.of(1, 1, 2, 1), Link.of(2, 2, 3, 1), Link.of(3, 2, 1, 2));
    assertThat(controller.connectedSwitches()).containsExactlyInAnyOrder(1L, 2L, 3L);

    Ipv6Address h1 = Ipv6Address.parse("fd6e:7073:1::1");
    Ipv6Address h3 = Ipv6Address.parse("fd6e:7073:1::3");
    MacAddress m1 = MacAddress.parse("02:00:00:00:00:01");
    MacAddress m3 = MacAddress.parse("02:00:00:00:00:03");
    switches.get(1L).sendPacketIn(9, 0, 0, NdCodec.encode(NdMessage.solicitation(m1, h1, h3)));
    switches.get(3L).sendPacketIn(9, 0, 0, NdCodec.encode(NdMessage.solicitation(m3, h3, h1)));
    Wait.until("two hosts", T, this::relay, () -> controller.topology().hosts().size() == 2);

    // Hosts are routed after they are learned: wait until every switch holds desired flows that
    // route both hosts, not merely the flows desired before the second host was routed.
    for (long dpid = 1; dpid <= 3; dpid++) {
      long d = dpid;
      Wait.until(
          "switch " + d + " holds the desired flows, routing both hosts",
          T,
          this::relay,
          () -> holdsDesired(d) && outPort(d, h1) != -1 && outPort(d, h3) != -1);
    }
    // Switch 1 reaches h3 directly over its link to 3 (port 2), and h1 out of port 9.
    assertThat(outPort(1, h3)).isEqualTo(2);
    assertThat(outPort(1, h1)).isEqualTo(9);

    // A solicitation for a known host is answered by the controller out of the asking port. The
    // answer is told by its frame: LLDP probes go out of port 9 too, every probe interval.
    int before = switches.get(1L).packetOuts().size();
    switches.get(1L).sendPacketIn(9, 0, 0, NdCodec.encode(NdMessage.solicitation(m1, h1, h3)));
    Wait.until(
        "a proxy advertisement",
        T,
        () -> {},
        () ->
            switches.get(1L).packetOuts().stream()
                .skip(before)
                .anyMatch(
                    r ->
                        r.actions().equals(List.of(Action.output(9)))
                            && NdCodec.decode(r.frame())
                                .toOptional()
                                .filter(m -> m.kind() == NdMessage.Kind.ADVERTISEMENT)
                                .filter(m -> m.target().equals(h3))
                                .isPresent()));
    // ... through the northbound bus: LLDP and ND reached their apps, the answer was a REPLY
    assertThat(controller.northbound().subscriptions())
        .containsOnlyKeys("topology-discovery", "host-tracking");
    assertThat(controller.northbound().metrics().replies()).isPositive();
    assertThat(controller.northbound().handled().get("topology-discovery")).isPositive();
    assertThat(controller.northbound().handled().get("host-tracking")).isPositive();

    // The 1-3 link goes down: it disappears and switch 1 reroutes over 2.
    switches.get(1L).setPortUp(2, false);
    Wait.until(
        "link 1-3 removed",
        T,
        this::relay,
        () -> !controller.topology().links().contains(Link.of(3, 2, 1, 2)));
    Wait.until("reroute", T, this::relay, () -> holdsDesired(1) && outPort(1, h3) == 1);
  }

  @Test
  void anAppRouteThatWouldLoopIsRefusedAgainstTheControllersOwnRoutes() throws Exception {
    Wait.until("three links", T, this::relay, () -> controller.topology().links().size() == 3);
    Ipv6Address h3 = Ipv6Address.parse("fd6e:7073:1::3");
    MacAddress m3 = MacAddress.parse("02:00:00:00:00:03");
    switches
        .get(3L)
        .sendPacketIn(
            9, 0, 0, NdCodec.encode(NdMessage.solicitation(m3, h3, Ipv6Address.parse("fd6e::9"))));
    // the controller routes h3: 3 delivers out of 9, 1 and 2 send to 3 over their direct links.
    // Waited for as routes, not as a known host: the topology shows a new host before its routes
    // are installed, and the loop check judges the app's entries against exactly these routes.
    Wait.until(
        "h3 routed over the direct links",
        T,
        this::relay,
        () -> outPort(3, h3) == 9 && outPort(1, h3) == 2 && outPort(2, h3) == 2);
    // the cables stay live while the app connects (1.6 s at load 44): unrelayed, every link
    // expired after 600 ms, h3's routes went with them and both flow-mods were refused
    try (AutoCloseable cables = cabling.live();
        RemoteAppClient app =
            RemoteAppClient.connect(
                "router", controller.northbound().remoteEndpoints().orElseThrow(), (in, a) -> {})) {
      Wait.until( // the routes the flow-mods are judged against, whatever the connect took
          "h3 still routed over the direct links",
          T,
          this::relay,
          () -> outPort(3, h3) == 9 && outPort(1, h3) == 2 && outPort(2, h3) == 2);
      FlowEntry loop = toH3(h3, 3, 1); // 3 → 2, which sends h3's traffic back to 3
      FlowEntry detour = toH3(h3, 2, 1); // 2 → 1 → 3: still delivered
      app.flowMod(3, FlowMod.add(loop));
      app.flowMod(2, FlowMod.add(detour));
      Wait.until(
          "the detour on switch 2",
          T,
          this::relay,
          () -> switches.get(2L).flows().contains(detour));
      Wait.until(
          "the loop refused",
          T,
          this::relay,
          () -> controller.northbound().metrics().refusedFlowMods() == 1);
      assertThat(switches.get(3L).flows()).doesNotContain(loop);
    }
  }

  private static FlowEntry toH3(Ipv6Address h3, long dpid, long port) {
    return FlowEntry.builder()
        .priority(UnicastRouting.PRIORITY_UNICAST + 1)
        .match(Match.builder().ipv6().ipv6Dst(MaskedIpv6.exact(h3)).build())
        .apply(Action.output(port))
        .build();
  }

  /** The output port of switch {@code dpid}'s unicast entry for {@code dst}, or -1. */
  private long outPort(long dpid, Ipv6Address dst) {
    for (FlowEntry f : switches.get(dpid).flows()) {
      if (f.priority() == UnicastRouting.PRIORITY_UNICAST
          && f.match().toString().contains(dst.toString())) {
        for (Action a : f.allActions()) {
          if (a instanceof Action.Output o) {
            return o.port();
          }
        }
      }
    }
    return -1;
  }
}
