package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.sim.FaultMode;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.network.openflow.FlowMod;

/**
 * Many switches at once; a misbehaving one (garbage, an unparsable message, another version,
 * silence) is disconnected and counted, and the others' batches are not delayed.
 */
class IsolationTest {
  private static final Duration WAIT = Fixture.WAIT;
  private static final int SWITCHES = 20;
  private static final Duration BARRIER = Duration.ofMillis(4000);
  private static final Duration DEAD_PEER = Duration.ofMillis(5000);

  @Test
  void twentySwitchesConnectAtOnceAndMisbehaviourStaysLocal() throws Exception {
    // The silent switch's batch must still wait while the others' batches are done: its barrier
    // timeout (and the dead-peer timeout after it) must outlast 16 batches of 20 flow-mods and
    // their barriers, which a loaded machine need not finish within the 1 s it had before.
    try (Fixture f = new Fixture(Duration.ofMillis(300), DEAD_PEER, BARRIER)) {
      List<SimulatedOpenFlowSwitch> sims = new ArrayList<>();
      List<CompletableFuture<Void>> connects = new ArrayList<>();
      for (int i = 1; i <= SWITCHES; i++) {
        SimulatedOpenFlowSwitch sim = SimulatedOpenFlowSwitch.builder().dpid(100 + i).build();
        sims.add(sim);
        connects.add(sim.connect(f.address()));
      }
      try {
        connects.forEach(c -> Poll.get(c, WAIT));
        Poll.until("all connected", WAIT, () -> f.server.switches().size() == SWITCHES);

        // Four misbehave in four ways; the other sixteen get a batch each at the same moment.
        SimulatedOpenFlowSwitch garbage = sims.get(0);
        SimulatedOpenFlowSwitch unparsable = sims.get(1);
        SimulatedOpenFlowSwitch oldVersion = sims.get(2);
        SimulatedOpenFlowSwitch silent = sims.get(3);
        SwitchHandle silentHandle = f.awaitHandle(silent.dpid());
        silent.setFault(FaultMode.SILENT);
        CompletableFuture<BatchResult> stuck =
            silentHandle.applyFlows(List.of(FlowMod.add(AcknowledgedUpdatesTest.flow(1, 1))));
        garbage.sendRaw(SimulatedOpenFlowSwitch.GARBAGE);
        unparsable.sendRaw(SimulatedOpenFlowSwitch.UNPARSABLE);
        oldVersion.setFault(FaultMode.WRONG_VERSION_REPLIES);
        CompletableFuture<BatchResult> answeredInOf10 =
            f.awaitHandle(oldVersion.dpid())
                .applyFlows(List.of(FlowMod.add(AcknowledgedUpdatesTest.flow(1, 1))));

        long start = System.nanoTime();
        List<CompletableFuture<BatchResult>> batches = new ArrayList<>();
        for (SimulatedOpenFlowSwitch sim : sims.subList(4, SWITCHES)) {
          SwitchHandle sw = f.awaitHandle(sim.dpid());
          batches.add(
              sw.applyFlows(
                  IntStream.range(0, 20)
                      .mapToObj(i -> FlowMod.add(AcknowledgedUpdatesTest.flow(i, 1 + i % 4)))
                      .toList()));
        }
        for (CompletableFuture<BatchResult> b : batches) {
          Poll.get(b, WAIT);
        }
        Duration healthy = Duration.ofNanos(System.nanoTime() - start);
        assertThat(stuck).as("the silent switch's batch is still waiting").isNotDone();
        // The others finished within the silent switch's barrier timeout.
        assertThat(healthy).isLessThan(Poll.scaled(BARRIER));
        for (SimulatedOpenFlowSwitch sim : sims.subList(4, SWITCHES)) {
          assertThat(sim.flows()).hasSize(20);
        }

        SouthboundMetrics m = f.server.metrics();
        Poll.until(
            "misbehaving switches dropped and counted",
            WAIT,
            () ->
                m.disconnects(DisconnectReason.MALFORMED_FRAME) == 1
                    && m.disconnects(DisconnectReason.UNPARSABLE_MESSAGE) == 1
                    && m.disconnects(DisconnectReason.WRONG_VERSION) == 1
                    && m.disconnects(DisconnectReason.DEAD_PEER) == 1);
        assertThat(Poll.failure(stuck, WAIT)).isInstanceOf(SouthboundException.class);
        assertThat(Poll.failure(answeredInOf10, WAIT))
            .isInstanceOf(SwitchDisconnectedException.class)
            .hasMessageContaining("WRONG_VERSION");
        assertThat(f.server.switches()).hasSize(SWITCHES - 4);
        Poll.until("four disconnect events", WAIT, () -> f.events.disconnected.size() == 4);
        assertThat(f.events.disconnected)
            .containsExactlyInAnyOrder(
                DisconnectReason.MALFORMED_FRAME,
                DisconnectReason.UNPARSABLE_MESSAGE,
                DisconnectReason.WRONG_VERSION,
                DisconnectReason.DEAD_PEER);
        assertThat(m.disconnects(DisconnectReason.INTERNAL_ERROR)).isZero();
        for (SimulatedOpenFlowSwitch sim : sims.subList(4, SWITCHES)) {
          assertThat(f.server.switchHandle(sim.dpid()).orElseThrow().isConnected()).isTrue();
        }
      } finally {
        sims.forEach(SimulatedOpenFlowSwitch::close);
      }
    }
  }

  @Test
  void aReconnectReplacesTheOldConnectionInOrder() throws Exception {
    // A long dead-peer timeout: the old connection is still registered when the new one claims.
    try (Fixture f =
        new Fixture(Duration.ofMillis(100), Duration.ofMillis(5000), Duration.ofMillis(500))) {
      SimulatedOpenFlowSwitch first = f.connect(SimulatedOpenFlowSwitch.builder().dpid(50));
      SwitchHandle old = f.awaitHandle(50);
      // The first connection dies silently (its echo goes unanswered), then the switch reconnects
      // with the same datapath id while the first is still open.
      first.setFault(FaultMode.SILENT);
      f.connect(SimulatedOpenFlowSwitch.builder().dpid(50));
      Poll.until(
          "replaced", WAIT, () -> f.server.switchHandle(50).map(h -> h != old).orElse(false));
      Poll.until("old closed", WAIT, () -> !first.isConnected());
      Poll.until("events", WAIT, () -> f.events.log.size() >= 3);
      assertThat(f.events.log)
          .containsExactly("connected 50", "disconnected 50 REPLACED", "connected 50");
      Poll.until(
          "REPLACED counted",
          WAIT,
          () -> f.server.metrics().disconnects(DisconnectReason.REPLACED) == 1);
    }
  }
}
