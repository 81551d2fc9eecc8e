package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupType;

/**
 * A (re)connecting switch is brought to its desired state, and only the difference is sent: the
 * simulated switch counts the messages it received.
 */
class ReconcileOnConnectTest {
  private static final Duration WAIT = Fixture.WAIT;

  static List<FlowEntry> flows(int from, int to) {
    List<FlowEntry> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(AcknowledgedUpdatesTest.flow(i, 1 + i % 4));
    }
    return out;
  }

  @Test
  void reconnectSendsOnlyTheDifference() throws Exception {
    try (Fixture f = new Fixture()) {
      GroupEntry g =
          GroupEntry.of(
              1,
              GroupType.ALL,
              Bucket.of(new Action.SetIpv6Dst(Ipv6Address.parse("ff0e::2")), Action.output(2)));
      FlowEntry toGroup =
          AcknowledgedUpdatesTest.flow(0x100, 1)
              .withInstructions(
                  List.of(org.netpubsub.network.openflow.Instruction.apply(Action.group(1))));
      List<FlowEntry> first = new ArrayList<>(flows(0, 30));
      first.add(toGroup);
      f.server.desiredState().put(21, new DesiredState(first, List.of(g)));

      // A switch that already holds a stray flow connects: reconciled to exactly the desired state.
      SimulatedOpenFlowSwitch.Builder b = SimulatedOpenFlowSwitch.builder().dpid(21);
      SimulatedOpenFlowSwitch sim = b.build();
      sim.install(FlowMod.add(AcknowledgedUpdatesTest.flow(0x999, 3)));
      Poll.get(sim.connect(f.address()), WAIT);
      Poll.until("reconciled", WAIT, () -> f.events.reconciled.size() == 1);
      ReconcileResult r1 = f.events.reconciled.get(0);
      assertThat(r1.flowsBefore()).isEqualTo(1);
      assertThat(r1.plan().flowsAdded()).isEqualTo(31);
      assertThat(r1.plan().flowsDeleted()).isEqualTo(1);
      assertThat(r1.plan().groupsAdded()).isEqualTo(1);
      assertThat(sim.flows()).containsExactlyInAnyOrderElementsOf(first);
      assertThat(sim.groups()).containsExactly(g);
      assertThat(f.events.log).containsSubsequence("connected 21", "reconciled 21");

      // Disconnected, the controller's wishes change: 5 flows go, 4 come, 1 changes its output.
      sim.disconnect();
      Poll.until("disconnect seen", WAIT, () -> f.server.switchHandle(21).isEmpty());
      List<FlowEntry> second = new ArrayList<>(flows(5, 34));
      second.set(0, AcknowledgedUpdatesTest.flow(5, 4)); // was output 2
      second.add(toGroup);
      f.server.desiredState().put(21, new DesiredState(second, List.of(g)));
      sim.clearReceived();
      Poll.get(sim.connect(f.address()), WAIT);
      Poll.until("reconciled again", WAIT, () -> f.events.reconciled.size() == 2);
      ReconcileResult r2 = f.events.reconciled.get(1);
      assertThat(sim.receivedMods()).hasSize(5 + 4 + 1).isEqualTo(r2.plan().mods());
      assertThat(r2.plan().flowsDeleted()).isEqualTo(5);
      assertThat(r2.plan().flowsAdded()).isEqualTo(4);
      assertThat(r2.plan().flowsModified()).isEqualTo(1);
      assertThat(sim.flows()).containsExactlyInAnyOrderElementsOf(second);
      assertThat(sim.groups()).containsExactly(g);

      // Nothing changed: a third reconnect sends nothing (no batch, no barrier).
      sim.disconnect();
      Poll.until("disconnect seen", WAIT, () -> f.server.switchHandle(21).isEmpty());
      sim.clearReceived();
      Poll.get(sim.connect(f.address()), WAIT);
      Poll.until("reconciled a third time", WAIT, () -> f.events.reconciled.size() == 3);
      assertThat(f.events.reconciled.get(2).plan().isEmpty()).isTrue();
      assertThat(sim.receivedMods()).isEmpty();
      assertThat(f.server.metrics().reconciles()).isEqualTo(3);
    }
  }

  @Test
  void switchWithoutDesiredStateIsLeftAlone() throws Exception {
    try (Fixture f = new Fixture()) {
      SimulatedOpenFlowSwitch sim = SimulatedOpenFlowSwitch.builder().dpid(22).build();
      sim.install(FlowMod.add(AcknowledgedUpdatesTest.flow(1, 1)));
      Poll.get(sim.connect(f.address()), WAIT);
      f.awaitHandle(22);
      assertThat(Poll.failure(f.server.reconcile(22), WAIT))
          .isInstanceOf(IllegalStateException.class);
      assertThat(sim.flows()).hasSize(1);
      assertThat(f.events.reconciled).isEmpty();
      sim.close();
    }
  }
}
