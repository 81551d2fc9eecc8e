package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.network.openflow.FlowMod;

/**
 * Issue 27 part 4: a second connection that claims the datapath id of a live switch (one that
 * answers its echo) is refused and counted; the real switch keeps its connection and its flows.
 * Before, the impostor replaced the switch and received every flow meant for it.
 */
class DuplicateDpidTest {
  private static final Duration WAIT = Fixture.WAIT;

  @Test
  void anImpostorClaimingALiveDpidIsRefusedAndGetsNoFlows() throws Exception {
    try (Fixture f =
        new Fixture(Duration.ofMillis(100), Duration.ofMillis(5000), Duration.ofMillis(500))) {
      SimulatedOpenFlowSwitch real = f.connect(SimulatedOpenFlowSwitch.builder().dpid(77));
      SwitchHandle handle = f.awaitHandle(77);

      SimulatedOpenFlowSwitch impostor = f.connect(SimulatedOpenFlowSwitch.builder().dpid(77));
      SimulatedOpenFlowSwitch second = f.connect(SimulatedOpenFlowSwitch.builder().dpid(77));
      SouthboundMetrics m = f.server.metrics();
      Poll.until(
          "both impostors refused and counted",
          WAIT,
          () -> m.disconnects(DisconnectReason.DUPLICATE_DPID) == 2);
      Poll.until(
          "impostors' connections closed",
          WAIT,
          () -> !impostor.isConnected() && !second.isConnected());

      assertThat(f.server.switchHandle(77)).containsSame(handle);
      assertThat(handle.isConnected()).isTrue();
      assertThat(real.isConnected()).isTrue();
      assertThat(m.disconnects(DisconnectReason.REPLACED)).isZero();
      assertThat(f.events.log).containsExactly("connected 77");

      // The flows meant for switch 77 reach the real switch, none the impostors.
      Poll.get(handle.applyFlows(List.of(FlowMod.add(AcknowledgedUpdatesTest.flow(1, 2)))), WAIT);
      assertThat(real.flows()).hasSize(1);
      assertThat(impostor.flows()).isEmpty();
      assertThat(second.flows()).isEmpty();
    }
  }

  @Test
  void aClaimAfterTheLiveSwitchLeftIsAccepted() throws Exception {
    try (Fixture f = new Fixture()) {
      SimulatedOpenFlowSwitch first = f.connect(SimulatedOpenFlowSwitch.builder().dpid(78));
      f.awaitHandle(78);
      first.disconnect();
      Poll.until("gone", WAIT, () -> f.server.switchHandle(78).isEmpty());
      SimulatedOpenFlowSwitch again = f.connect(SimulatedOpenFlowSwitch.builder().dpid(78));
      SwitchHandle h = f.awaitHandle(78);
      Poll.get(h.applyFlows(List.of(FlowMod.add(AcknowledgedUpdatesTest.flow(1, 2)))), WAIT);
      assertThat(again.flows()).hasSize(1);
      assertThat(f.server.metrics().disconnects(DisconnectReason.DUPLICATE_DPID)).isZero();
    }
  }
}
