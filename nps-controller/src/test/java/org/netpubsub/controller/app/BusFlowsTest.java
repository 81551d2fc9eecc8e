package org.netpubsub.controller.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.nbi.DistributionMode;
import org.netpubsub.controller.nbi.RemoteAppClient;
import org.netpubsub.controller.nbi.RemoteAppEndpoints;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Match;

/**
 * Flows that a bus app installs in {@code nps controller} join the desired state, so a reconcile
 * keeps them; flows with a timeout stay transient; a delete takes a kept flow out again.
 */
class BusFlowsTest {
  private static final Duration T = Duration.ofSeconds(10);

  private NetworkController controller;
  private SimulatedOpenFlowSwitch sw;
  private RemoteAppClient app;

  @AfterEach
  void stop() {
    if (app != null) {
      app.close();
    }
    if (sw != null) {
      sw.close();
    }
    if (controller != null) {
      controller.close();
    }
  }

  static FlowEntry flow(int priority, int idleTimeout) {
    return FlowEntry.builder()
        .priority(priority)
        .match(Match.builder().inPort(1).build())
        .apply(Action.output(2))
        .idleTimeout(idleTimeout)
        .build();
  }

  @Test
  void keptFlowsSurviveAReconcileTimedOnesAreNotKeptDeletesRemove() throws Exception {
    controller =
        NetworkController.start(
            ControllerConfig.defaults()
                .withPort("127.0.0.1", 0)
                .withNorthbound(DistributionMode.CLASSIFIED, RemoteAppEndpoints.loopback()));
    sw = SimulatedOpenFlowSwitch.builder().dpid(1).ports(1, 2).build();
    sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
    Wait.until("the switch joined", T, () -> {}, () -> controller.connectedSwitches().contains(1L));
    app =
        RemoteAppClient.connect(
            "router", controller.northbound().remoteEndpoints().orElseThrow(), (in, a) -> {});

    FlowEntry kept = flow(40, 0);
    FlowEntry timed = flow(41, 30);
    app.flowMod(1, FlowMod.add(kept));
    app.flowMod(1, FlowMod.add(timed));
    Wait.until(
        "both flows on the switch",
        T,
        () -> {},
        () -> sw.flows().contains(kept) && sw.flows().contains(timed));
    assertThat(controller.desiredFlows(1)).contains(kept).doesNotContain(timed);

    controller.reconcile(1).get();
    assertThat(sw.flows()).contains(kept); // the reconcile keeps the app's flow...
    assertThat(sw.flows()).doesNotContain(timed); // ...and drops the transient one

    app.flowMod(1, FlowMod.deleteStrict(kept));
    Wait.until("the kept flow deleted", T, () -> {}, () -> !sw.flows().contains(kept));
    assertThat(controller.desiredFlows(1)).doesNotContain(kept);
  }
}
