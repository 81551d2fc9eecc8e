package org.netpubsub.controller.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.southbound.OpenFlowServer;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;

/** The load-generator hooks: a message listener, recording off, applying off. */
class SimulatedOpenFlowSwitchHooksTest {
  private static final double SCALE =
      Double.parseDouble(System.getProperty("nps.test.timeoutScale", "1"));
  private static final Duration WAIT = Duration.ofMillis((long) (10_000 * SCALE));

  /** Counts what the listener is told, and on which threads. */
  static final class Counting implements ControllerMessageListener {
    final AtomicInteger features = new AtomicInteger();
    final AtomicInteger flowMods = new AtomicInteger();
    final AtomicInteger packetOuts = new AtomicInteger();
    final Set<String> threads = ConcurrentHashMap.newKeySet();

    @Override
    public void featuresRequest() {
      threads.add(Thread.currentThread().getName());
      features.incrementAndGet();
    }

    @Override
    public void flowMod() {
      threads.add(Thread.currentThread().getName());
      flowMods.incrementAndGet();
    }

    @Override
    public void packetOut() {
      threads.add(Thread.currentThread().getName());
      packetOuts.incrementAndGet();
    }
  }

  private static FlowEntry flow(int prefix) {
    return FlowEntry.builder()
        .priority(100)
        .match(
            Match.builder().ipv6().ipv6Dst("ff0e:" + Integer.toHexString(prefix) + "::/32").build())
        .apply(Action.output(1))
        .build();
  }

  /** Outputs to group 99, which does not exist: the table refuses it (OFPBAC_BAD_OUT_GROUP). */
  private static final FlowEntry REFUSED =
      FlowEntry.builder()
          .priority(100)
          .match(Match.builder().ipv6().build())
          .apply(Action.group(99))
          .build();

  @Test
  void listenerHearsFeaturesFlowModsAndPacketOutsOnTheEventLoopAndRecordingStaysOnByDefault()
      throws Exception {
    Counting heard = new Counting();
    try (OpenFlowServer server = server();
        SimulatedOpenFlowSwitch sim =
            SimulatedOpenFlowSwitch.builder().dpid(21).messageListener(heard).build()) {
      sim.connect(server.localAddress()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      SwitchHandle sw = handle(server, 21);
      assertThat(heard.features).hasValue(1);

      sw.applyFlows(List.of(FlowMod.add(flow(1)), FlowMod.add(flow(2))))
          .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      assertThat(heard.flowMods).as("told before the barrier is answered").hasValue(2);
      sw.packetOut(OfPort.CONTROLLER, List.of(Action.output(2)), new byte[] {1, 2, 3});
      until("packet-out heard", () -> heard.packetOuts.get() == 1);

      assertThat(heard.threads).allMatch(t -> t.startsWith("nps-sim-switch"));
      assertThat(sim.receivedMods()).hasSize(2);
      assertThat(sim.flows()).hasSize(2);
      assertThat(sim.packetOuts()).hasSize(1);
    }
  }

  @Test
  void withoutRecordingTheTableIsStillAppliedButNothingIsKept() throws Exception {
    Counting heard = new Counting();
    AtomicInteger hooked = new AtomicInteger();
    try (OpenFlowServer server = server();
        SimulatedOpenFlowSwitch sim =
            SimulatedOpenFlowSwitch.builder()
                .dpid(22)
                .messageListener(heard)
                .packetOutHook(r -> hooked.incrementAndGet())
                .recordReceived(false)
                .build()) {
      sim.connect(server.localAddress()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      SwitchHandle sw = handle(server, 22);
      sw.applyFlows(List.of(FlowMod.add(flow(1)))).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      for (int i = 0; i < 3; i++) {
        sw.packetOut(OfPort.CONTROLLER, List.of(Action.output(2)), new byte[] {(byte) i});
      }
      until("packet-outs heard", () -> heard.packetOuts.get() == 3);

      assertThat(sim.flows()).hasSize(1);
      assertThat(sim.receivedMods()).isEmpty();
      assertThat(sim.packetOuts()).isEmpty();
      assertThat(hooked).as("the packet-out hook still runs").hasValue(3);
      assertThat(heard.flowMods).hasValue(1);
    }
  }

  @Test
  void withoutApplyingModsAreHeardButNeitherAppliedNorRefused() throws Exception {
    Counting heard = new Counting();
    try (OpenFlowServer server = server();
        SimulatedOpenFlowSwitch sim =
            SimulatedOpenFlowSwitch.builder()
                .dpid(23)
                .messageListener(heard)
                .applyMods(false)
                .build()) {
      sim.connect(server.localAddress()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      SwitchHandle sw = handle(server, 23);
      var result =
          sw.applyFlows(List.of(FlowMod.add(flow(1)), FlowMod.add(REFUSED)))
              .get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

      assertThat(result.messages()).as("acknowledged without an error").isEqualTo(2);
      assertThat(heard.flowMods).hasValue(2);
      assertThat(sim.flows()).isEmpty();
      assertThat(sim.receivedMods()).isEmpty();
      assertThat(sim.barriersReceived()).isGreaterThanOrEqualTo(1);
    }
  }

  @Test
  void aThrowingListenerDoesNotDisturbTheSwitch() throws Exception {
    ControllerMessageListener throwing =
        new ControllerMessageListener() {
          @Override
          public void flowMod() {
            throw new IllegalStateException("listener bug");
          }
        };
    try (OpenFlowServer server = server();
        SimulatedOpenFlowSwitch sim =
            SimulatedOpenFlowSwitch.builder().dpid(24).messageListener(throwing).build()) {
      sim.connect(server.localAddress()).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
      SwitchHandle sw = handle(server, 24);
      sw.applyFlows(List.of(FlowMod.add(flow(1)))).get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

      assertThat(sim.flows()).hasSize(1);
      assertThat(server.metrics().unsolicitedErrors()).isZero();
      assertThat(sw.isConnected()).isTrue();
    }
  }

  private static OpenFlowServer server() throws java.io.IOException {
    return OpenFlowServer.builder().bindAddress("127.0.0.1").port(0).build().start();
  }

  private static SwitchHandle handle(OpenFlowServer server, long dpid) {
    SwitchHandle[] box = new SwitchHandle[1];
    until(
        "switch " + dpid + " connected",
        () -> (box[0] = server.switchHandle(dpid).orElse(null)) != null);
    return box[0];
  }

  private static void until(String what, BooleanSupplier condition) {
    Wait.until(what, WAIT, condition);
  }
}
