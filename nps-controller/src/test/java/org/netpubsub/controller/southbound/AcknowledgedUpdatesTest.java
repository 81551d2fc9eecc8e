package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.sim.FaultMode;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.OpenFlowError;

/** Batches acknowledged by a barrier, errors, timeouts, multipart reads, packet-out. */
class AcknowledgedUpdatesTest {
  private static final Duration WAIT = Fixture.WAIT;

  static FlowEntry flow(int prefix, long port) {
    return FlowEntry.builder()
        .priority(100)
        .match(
            Match.builder().ipv6().ipv6Dst("ff0e:" + Integer.toHexString(prefix) + "::/32").build())
        .apply(Action.output(port))
        .build();
  }

  @Test
  void batchCompletesWhenTheBarrierIsAnswered() throws Exception {
    try (Fixture f = new Fixture()) {
      SimulatedOpenFlowSwitch.Builder b = SimulatedOpenFlowSwitch.builder().dpid(1);
      SimulatedOpenFlowSwitch sim = f.connect(b);
      SwitchHandle sw = f.awaitHandle(1);
      GroupEntry g =
          GroupEntry.of(
              7,
              GroupType.ALL,
              Bucket.of(new Action.SetIpv6Dst(Ipv6Address.parse("ff0e::1")), Action.output(1)),
              Bucket.of(Action.output(2)));
      FlowEntry toGroup =
          FlowEntry.builder()
              .priority(200)
              .match(Match.builder().ipv6().ipv6Dst("ff0e:ff::/32").build())
              .apply(Action.group(7))
              .build();
      List<SwitchMod> batch =
          List.of(
              SwitchMod.of(GroupMod.add(g)),
              SwitchMod.of(FlowMod.add(flow(1, 1))),
              SwitchMod.of(FlowMod.add(flow(2, 2))),
              SwitchMod.of(FlowMod.add(toGroup)));
      BatchResult r = Poll.get(sw.apply(batch), WAIT);
      assertThat(r.messages()).isEqualTo(4);
      assertThat(r.dpid()).isEqualTo(1);
      assertThat(sim.receivedMods()).isEqualTo(batch);
      assertThat(sim.barriersReceived()).isGreaterThanOrEqualTo(2); // handshake + batch
      assertThat(sim.flows()).containsExactlyInAnyOrder(flow(1, 1), flow(2, 2), toGroup);
      assertThat(Poll.get(sw.flowStats(), WAIT)).isEqualTo(sim.flows());
      assertThat(Poll.get(sw.groupDesc(), WAIT)).containsExactly(g);
      assertThat(f.server.metrics().batchesAcknowledged()).isEqualTo(1);
      assertThat(f.server.metrics().modsSent()).isEqualTo(4);
      assertThat(Poll.get(sw.apply(List.of()), WAIT).messages()).isZero();
    }
  }

  @Test
  void anErrorFailsTheBatchNamingTheOffendingMod() throws Exception {
    try (Fixture f = new Fixture()) {
      SimulatedOpenFlowSwitch sim = f.connect(SimulatedOpenFlowSwitch.builder().dpid(2));
      SwitchHandle sw = f.awaitHandle(2);
      FlowMod bad =
          FlowMod.builder(org.netpubsub.network.openflow.FlowModCommand.ADD)
              .priority(5)
              .match(Match.builder().ipv6().build())
              .apply(Action.group(99))
              .build();
      List<FlowMod> batch = List.of(FlowMod.add(flow(1, 1)), bad, FlowMod.add(flow(2, 2)));
      Throwable t = Poll.failure(sw.applyFlows(batch), WAIT);
      assertThat(t).isInstanceOf(BatchFailedException.class);
      BatchFailedException e = (BatchFailedException) t;
      assertThat(e.errors()).hasSize(1);
      assertThat(e.first().mod()).isEqualTo(SwitchMod.of(bad));
      assertThat(e.first().error().known()).contains(OpenFlowError.OFPBAC_BAD_OUT_GROUP);
      assertThat(e.first().error().data()).hasSize(64); // the start of the refused request
      assertThat(e.batchSize()).isEqualTo(3);
      assertThat(e.getMessage()).contains("OFPBAC_BAD_OUT_GROUP").contains("1 of 3");
      // The barrier finished the other messages: they took effect.
      assertThat(sim.flows()).containsExactlyInAnyOrder(flow(1, 1), flow(2, 2));
      assertThat(f.server.metrics().batchesFailed()).isEqualTo(1);
      assertThat(f.events.errors).as("answered errors are not unsolicited").isEmpty();
      assertThat(sw.isConnected()).isTrue();
    }
  }

  @Test
  void multipartRepliesAreAggregated() throws Exception {
    try (Fixture f = new Fixture()) {
      SimulatedOpenFlowSwitch sim =
          f.connect(SimulatedOpenFlowSwitch.builder().dpid(3).statsPartSize(7));
      SwitchHandle sw = f.awaitHandle(3);
      List<FlowMod> mods = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        mods.add(FlowMod.add(flow(i, 1 + i % 4)));
      }
      Poll.get(sw.applyFlows(mods), WAIT);
      List<FlowEntry> stats = Poll.get(sw.flowStats(), WAIT);
      assertThat(stats).hasSize(50).isEqualTo(sim.flows());
    }
  }

  @Test
  void perUpdateLatencyDelaysTheAcknowledgement() throws Exception {
    try (Fixture f = new Fixture()) {
      f.connect(SimulatedOpenFlowSwitch.builder().dpid(4).updateLatency(Duration.ofMillis(30)));
      SwitchHandle sw = f.awaitHandle(4);
      BatchResult r =
          Poll.get(
              sw.applyFlows(
                  List.of(
                      FlowMod.add(flow(1, 1)),
                      FlowMod.add(flow(2, 1)),
                      FlowMod.add(flow(3, 1)),
                      FlowMod.add(flow(4, 1)))),
              WAIT);
      assertThat(r.latency()).isGreaterThanOrEqualTo(Duration.ofMillis(120));
    }
  }

  @Test
  void silentSwitchTimesOutThenIsDroppedAsDead() throws Exception {
    // The barrier timeout (200 ms) comes before the dead-peer timeout (800 ms).
    try (Fixture f =
        new Fixture(Duration.ofMillis(100), Duration.ofMillis(800), Duration.ofMillis(200))) {
      SimulatedOpenFlowSwitch sim = f.connect(SimulatedOpenFlowSwitch.builder().dpid(5));
      SwitchHandle sw = f.awaitHandle(5);
      sim.setFault(FaultMode.SILENT);
      CompletableFuture<BatchResult> batch = sw.applyFlows(List.of(FlowMod.add(flow(1, 1))));
      CompletableFuture<List<FlowEntry>> stats = sw.flowStats();
      Throwable t = Poll.failure(batch, WAIT);
      assertThat(t).isInstanceOf(SouthboundTimeoutException.class).hasMessageContaining("barrier");
      assertThat(Poll.failure(stats, WAIT)).isInstanceOf(SouthboundException.class);
      Poll.until(
          "dead-peer disconnect",
          WAIT,
          () -> f.events.disconnected.contains(DisconnectReason.DEAD_PEER));
      assertThat(f.server.metrics().batchesTimedOut()).isEqualTo(1);
      assertThat(sw.isConnected()).isFalse();
      assertThat(f.server.switchHandle(5)).isEmpty();
      assertThat(Poll.failure(sw.applyFlows(List.of()), WAIT))
          .isInstanceOf(SwitchDisconnectedException.class);
    }
  }

  @Test
  void switchThatNeverAnswersBarriersTimesOutButStaysConnected() throws Exception {
    try (Fixture f =
        new Fixture(Duration.ofMillis(100), Duration.ofMillis(5000), Duration.ofMillis(500))) {
      SimulatedOpenFlowSwitch sim = f.connect(SimulatedOpenFlowSwitch.builder().dpid(6));
      SwitchHandle sw = f.awaitHandle(6);
      sim.setFault(FaultMode.NO_BARRIER_REPLIES);
      Throwable t = Poll.failure(sw.applyFlows(List.of(FlowMod.add(flow(1, 1)))), WAIT);
      assertThat(t).isInstanceOf(SouthboundTimeoutException.class);
      assertThat(sim.flows()).containsExactly(flow(1, 1));
      long before = f.server.metrics().messagesReceived();
      Poll.until("echo replies", WAIT, () -> f.server.metrics().messagesReceived() >= before + 6);
      assertThat(sw.isConnected()).isTrue();
    }
  }

  @Test
  void packetOutReachesTheSwitch() throws Exception {
    try (Fixture f = new Fixture()) {
      SimulatedOpenFlowSwitch sim = f.connect(SimulatedOpenFlowSwitch.builder().dpid(7));
      SwitchHandle sw = f.awaitHandle(7);
      byte[] frame = {1, 2, 3, 4, 5, 6, 7, 8, 9};
      Poll.get(sw.packetOut(OfPort.CONTROLLER, List.of(Action.output(3)), frame), WAIT);
      Poll.until("packet-out recorded", WAIT, () -> sim.packetOuts().size() == 1);
      assertThat(sim.packetOuts().get(0).inPort()).isEqualTo(OfPort.CONTROLLER);
      assertThat(sim.packetOuts().get(0).actions()).containsExactly(Action.output(3));
      assertThat(sim.packetOuts().get(0).frame()).isEqualTo(frame);
    }
  }

  @Test
  void concurrentBatchesFromManyThreadsAllComplete() throws Exception {
    try (Fixture f = new Fixture()) {
      SimulatedOpenFlowSwitch sim = f.connect(SimulatedOpenFlowSwitch.builder().dpid(8));
      SwitchHandle sw = f.awaitHandle(8);
      List<CompletableFuture<BatchResult>> all = new ArrayList<>();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int base = t * 100;
        threads.add(
            Thread.ofPlatform()
                .start(
                    () -> {
                      for (int i = 0; i < 25; i++) {
                        CompletableFuture<BatchResult> fut =
                            sw.applyFlows(List.of(FlowMod.add(flow(base + i, 1))));
                        synchronized (all) {
                          all.add(fut);
                        }
                      }
                    }));
      }
      for (Thread t : threads) {
        t.join();
      }
      for (CompletableFuture<BatchResult> fut : all) {
        Poll.get(fut, WAIT);
      }
      assertThat(sim.flows()).hasSize(100);
    }
  }
}
