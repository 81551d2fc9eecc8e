package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.sim.FaultMode;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.network.openflow.OfPort;

/** The handshake and keep-alive against simulated switches over real TCP on localhost. */
class HandshakeTest {
  private static final Duration WAIT = Fixture.WAIT;

  @Test
  void handshakeLearnsDatapathIdTablesAndPorts() throws Exception {
    try (Fixture f = new Fixture()) {
      SimulatedOpenFlowSwitch sim =
          f.connect(SimulatedOpenFlowSwitch.builder().dpid(0x2a).ports(1, 2, 7).numTables(10));
      SwitchHandle sw = f.awaitHandle(0x2a);
      assertThat(sw.dpid()).isEqualTo(0x2a);
      assertThat(sw.dpidString()).isEqualTo("00:00:00:00:00:00:00:2a");
      assertThat(sw.numTables()).isEqualTo(10);
      assertThat(sw.isConnected()).isTrue();
      assertThat(sw.ports()).extracting(PortInfo::number).containsExactly(1L, 2L, 7L, OfPort.LOCAL);
      assertThat(sw.ports().get(0).name()).isEqualTo("sim42-eth1");
      assertThat(sw.ports().get(0).up()).isTrue();
      assertThat(sw.ports().get(3).up()).isFalse();
      assertThat(sim.missSendLen()).as("SET_CONFIG miss_send_len = no buffer").isEqualTo(0xffff);
      assertThat(Poll.get(sw.portDescriptions(), WAIT)).isEqualTo(sw.ports());
      Poll.until("switchConnected event", WAIT, () -> f.events.connected.contains(0x2aL));
      assertThat(f.events.threads).noneMatch(t -> t.startsWith("nps-of"));
      assertThat(f.server.metrics().handshakesCompleted()).isEqualTo(1);
      assertThat(f.server.switches()).containsExactly(sw);
    }
  }

  @Test
  void openFlow10HelloIsRefusedWithHelloFailed() throws Exception {
    try (Fixture f = new Fixture()) {
      SimulatedOpenFlowSwitch sim =
          f.connect(SimulatedOpenFlowSwitch.builder().dpid(3).fault(FaultMode.OPENFLOW10_HELLO));
      Poll.until(
          "HELLO_FAILED disconnect",
          WAIT,
          () -> f.server.metrics().disconnects(DisconnectReason.HELLO_FAILED) == 1);
      Poll.until("connection closed", WAIT, () -> !sim.isConnected());
      assertThat(f.server.switchHandle(3)).isEmpty();
      assertThat(f.events.log).isEmpty();
    }
  }

  @Test
  void garbageInsteadOfHelloIsAMalformedFrame() throws Exception {
    try (Fixture f = new Fixture()) {
      SimulatedOpenFlowSwitch sim =
          f.connect(SimulatedOpenFlowSwitch.builder().dpid(4).fault(FaultMode.GARBAGE_HELLO));
      Poll.until(
          "MALFORMED_FRAME disconnect",
          WAIT,
          () -> f.server.metrics().disconnects(DisconnectReason.MALFORMED_FRAME) == 1);
      Poll.until("connection closed", WAIT, () -> !sim.isConnected());
    }
  }

  @Test
  void silentPeerIsDroppedAsDead() throws Exception {
    // a short dead-peer timeout: the only switch is the silent one
    try (Fixture f =
        new Fixture(Duration.ofMillis(100), Duration.ofMillis(400), Duration.ofMillis(500))) {
      SimulatedOpenFlowSwitch sim =
          f.connect(SimulatedOpenFlowSwitch.builder().dpid(5).fault(FaultMode.SILENT));
      Poll.until(
          "DEAD_PEER disconnect",
          WAIT,
          () -> f.server.metrics().disconnects(DisconnectReason.DEAD_PEER) == 1);
      Poll.until("connection closed", WAIT, () -> !sim.isConnected());
      assertThat(f.server.metrics().handshakesCompleted()).isZero();
    }
  }

  @Test
  void idleSwitchAnsweringEchoesStaysConnected() throws Exception {
    try (Fixture f = new Fixture()) {
      SwitchHandle sw = f.connected(SimulatedOpenFlowSwitch.builder().dpid(6));
      long before = f.server.metrics().messagesReceived();
      // Echo every 100 ms of silence: 8 echo replies span twice the 400 ms dead-peer timeout.
      Poll.until("echo replies", WAIT, () -> f.server.metrics().messagesReceived() >= before + 8);
      assertThat(sw.isConnected()).isTrue();
      assertThat(f.events.disconnected).isEmpty();
    }
  }

  @Test
  void serverLifecycle() throws Exception {
    OpenFlowServer s = OpenFlowServer.builder().bindAddress("127.0.0.1").port(0).build();
    assertThat(s.state()).isEqualTo(ServerState.LATENT);
    s.start();
    assertThat(s.state()).isEqualTo(ServerState.STARTED);
    assertThat(s.localAddress().getPort()).isPositive();
    s.close();
    s.close();
    assertThat(s.state()).isEqualTo(ServerState.CLOSED);
    org.assertj.core.api.Assertions.assertThatThrownBy(s::start)
        .isInstanceOf(IllegalStateException.class);
  }
}
