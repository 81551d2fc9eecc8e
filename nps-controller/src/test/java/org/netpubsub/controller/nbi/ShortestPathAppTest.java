package org.netpubsub.controller.nbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.controller.nbi.NorthboundBusTest.H1;
import static org.netpubsub.controller.nbi.NorthboundBusTest.H2;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.nbi.apps.ShortestPathApp;
import org.netpubsub.controller.southbound.SouthboundListener.PacketInReason;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The shortest-path app on the bus: a packet-in for a known host installs the path farthest switch
 * first and sends the packet on; one for an unknown host is dropped; paths follow the topology the
 * bus announces.
 */
class ShortestPathAppTest {
  static final Duration T = Duration.ofSeconds(5);

  /** s1 (ports 1, 2, 3) and s2 (ports 1, 3) linked twice: 1:2-2:1 and, later, 1:3-2:2. */
  static final Topology LINE =
      Topology.EMPTY
          .addSwitch(1, 1, 2, 3)
          .addSwitch(2, 1, 2, 3)
          .addLink(Link.of(1, 2, 2, 1))
          .addHost(new Host(H2, new MacAddress(2), new SwitchPort(2, 3)));

  final RecordingSwitch s1 = new RecordingSwitch(1);
  final RecordingSwitch s2 = new RecordingSwitch(2);
  NorthboundBus bus;

  @AfterEach
  void close() {
    bus.close();
  }

  void start() {
    bus =
        NorthboundBus.builder()
            .app(new ShortestPathApp("shortest", List.of(NbiTopic.parse("eth_type=0x86dd"))))
            .build();
    bus.attach(d -> Optional.of(d == 1 ? s1 : s2));
  }

  @Test
  void aPacketForAKnownHostGetsItsPathFarthestFirstThenGoesOn() {
    start();
    bus.routesChanged(LINE, List.of());
    bus.packetIn(1, 1, PacketInReason.NO_MATCH, 0, 0, Frames.udp6(H1, H2, 7073));
    Wait.until("the path and the packet-out", T, () -> s1.packetOuts.size() == 1);
    assertThat(flows(s2)).containsExactly(key(NorthboundBusTest.toH2(3))); // delivers
    assertThat(flows(s1)).containsExactly(key(NorthboundBusTest.toH2(2))); // towards s2
    assertThat(s1.packetOuts.get(0).actions()).containsExactly(Action.output(2));
    assertThat(bus.metrics().refusedFlowMods()).isZero();
  }

  @Test
  void unknownHostsAreDroppedAndPathsFollowTheAnnouncedTopology() {
    start();
    bus.packetIn(1, 1, PacketInReason.NO_MATCH, 0, 0, Frames.udp6(H1, H2, 7073)); // no topology
    Topology moved = LINE.removeLink(Link.of(1, 2, 2, 1)).addLink(Link.of(1, 3, 2, 2));
    bus.routesChanged(moved, List.of());
    bus.packetIn(1, 1, PacketInReason.NO_MATCH, 0, 0, Frames.udp6(H1, H2, 7074));
    Wait.until("the second packet forwarded", T, () -> s1.packetOuts.size() == 1);
    assertThat(s1.packetOuts.get(0).actions()).containsExactly(Action.output(3));
    assertThat(flows(s1)).containsExactly(key(NorthboundBusTest.toH2(3)));
  }

  /** What a flow-mod installs: its priority, match and instructions (not its timeout). */
  private static List<Object> key(FlowMod m) {
    return List.of(m.priority(), m.match(), m.instructions());
  }

  private static List<List<Object>> flows(RecordingSwitch s) {
    return s.mods.stream().map(m -> key(((SwitchMod.Flow) m).mod())).toList();
  }
}
