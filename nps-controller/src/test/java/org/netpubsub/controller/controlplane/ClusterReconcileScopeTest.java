package org.netpubsub.controller.controlplane;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.Dz;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.sim.ControllerMessageListener;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.southbound.ReconcilePlan;
import org.netpubsub.controller.southbound.ReconcileScope;
import org.netpubsub.controller.southbound.Reconciler;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.SimulatedSwitch;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.pleroma.EventEgress;

/**
 * Two controller processes share a switch: A serves partition {@code 0}, B partition {@code 1}.
 * Neither A's switch-wide reconcile (base flows only) nor A's resync of its partition touches B's
 * content flows: on nps-network's simulated switch applying the plans, and through a {@link
 * NetworkController} over OpenFlow to a simulated switch.
 */
class ClusterReconcileScopeTest {
  private static final Duration T = Duration.ofSeconds(10);

  /** The scope of a cluster process's switch-wide reconcile (as ClusterPleromaEngine's). */
  private static final ReconcileScope BASE =
      new ReconcileScope(f -> f.cookie() != ContentFlows.COOKIE, true);

  private static FlowEntry content(String dz, long port) {
    TreeSet<EventEgress> out = new TreeSet<>();
    out.add(EventEgress.towardsSwitch(port));
    return ContentFlows.entry(Dz.parse(dz), out);
  }

  private static FlowEntry base(String dst, long port) {
    return FlowEntry.builder()
        .priority(100)
        .cookie(0x4e50_5300_0000_0001L)
        .match(Match.builder().ipv6().ipv6Dst(dst).build())
        .apply(Action.output(port))
        .build();
  }

  private static void apply(SimulatedSwitch sw, ReconcilePlan plan) {
    for (SwitchMod m : plan.mods()) {
      assertThat(sw.apply(((SwitchMod.Flow) m).mod())).isEmpty();
    }
  }

  @Test
  void aProcessReconcilesItsShareAndLeavesTheOtherProcessFlowsAlone() {
    FlowEntry aOld = content("001", 1);
    FlowEntry aNew = content("010", 2);
    FlowEntry b = content("1", 3);
    FlowEntry b2 = content("110", 4);
    FlowEntry route = base("fd00::1/128", 1);
    FlowEntry staleRoute = base("fd00::2/128", 2);
    SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3, 4).build();
    for (FlowEntry f : List.of(aOld, b, b2, staleRoute)) {
      sw.apply(FlowMod.add(f));
    }

    // A's switch-wide reconcile: the base flows only, whatever its desired content says
    DesiredState aWants = new DesiredState(List.of(route, aNew), List.of());
    apply(sw, Reconciler.plan(aWants, sw.flows(), sw.groups(), BASE));
    assertThat(sw.flows()).containsExactlyInAnyOrder(route, aOld, b, b2);

    // A's resync of partition 0: its own content flows only
    apply(
        sw,
        Reconciler.plan(
            new DesiredState(List.of(aNew), List.of()),
            sw.flows(),
            sw.groups(),
            ReconcileScope.flowsOnly(ControlPlane.owned(Dz.parse("0")))));
    assertThat(sw.flows()).containsExactlyInAnyOrder(route, aNew, b, b2);

    // B's resync of partition 1 to nothing removes B's flows and nothing else
    apply(
        sw,
        Reconciler.plan(
            DesiredState.EMPTY,
            sw.flows(),
            sw.groups(),
            ReconcileScope.flowsOnly(ControlPlane.owned(Dz.parse("1")))));
    assertThat(sw.flows()).containsExactlyInAnyOrder(route, aNew);
  }

  @Test
  void theControllerOfAClusterProcessReconcilesItsShareOverOpenFlow() throws Exception {
    FlowEntry aOld = content("001", 1);
    FlowEntry aNew = content("010", 2);
    FlowEntry b = content("1", 1);
    FlowEntry stale = base("fd00::2/128", 2);
    try (NetworkController controller =
            NetworkController.start(
                ControllerConfig.defaults()
                    .withPort("127.0.0.1", 0)
                    .withReconcileScope(
                        PubSubService.clusterReconcileScope(() -> true, () -> true)));
        SimulatedOpenFlowSwitch sw =
            SimulatedOpenFlowSwitch.builder().dpid(1).ports(1, 2).build()) {
      for (FlowEntry f : List.of(aOld, b, stale)) {
        assertThat(sw.install(FlowMod.add(f))).isEmpty(); // left by the processes before
      }
      sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
      Wait.until(
          "the switch joined", T, () -> {}, () -> controller.connectedSwitches().contains(1L));

      controller.reconcile(1).get();
      List<FlowEntry> base = controller.desiredFlows(1);
      assertThat(sw.flows()).containsExactlyInAnyOrderElementsOf(concat(base, List.of(aOld, b)));

      controller.reconcileScoped(1, ControlPlane.owned(Dz.parse("0")), List.of(aNew)).get();
      assertThat(sw.flows()).containsExactlyInAnyOrderElementsOf(concat(base, List.of(aNew, b)));
    }
  }

  /**
   * A partition's resync (a scoped reconcile) and the switch-wide reconcile take turns: neither
   * reads the switch while the other's batch is still unacknowledged, in either order.
   */
  @Test
  void scopedAndSwitchWideReconcilesOfOneSwitchNeverOverlap() throws Exception {
    AtomicBoolean recording = new AtomicBoolean();
    AtomicInteger open = new AtomicInteger(); // reads not yet followed by their batch's barrier
    AtomicInteger overlaps = new AtomicInteger();
    ControllerMessageListener turns =
        new ControllerMessageListener() {
          @Override
          public void flowStatsRequest() {
            if (recording.get() && open.getAndIncrement() > 0) {
              overlaps.incrementAndGet();
            }
          }

          @Override
          public void barrierRequest() {
            if (recording.get() && open.get() > 0) {
              open.decrementAndGet();
            }
          }
        };
    try (NetworkController controller =
            NetworkController.start(
                ControllerConfig.defaults()
                    .withPort("127.0.0.1", 0)
                    .withReconcileScope(
                        PubSubService.clusterReconcileScope(() -> true, () -> true)));
        SimulatedOpenFlowSwitch sw =
            SimulatedOpenFlowSwitch.builder()
                .dpid(1)
                .ports(1, 2)
                .updateLatency(Duration.ofMillis(20)) // batches acknowledged late
                .messageListener(turns)
                .build()) {
      sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
      Wait.until(
          "the switch joined", T, () -> {}, () -> controller.connectedSwitches().contains(1L));
      controller.reconcile(1).get(); // after the reconcile on connect
      List<FlowEntry> base = controller.desiredFlows(1);
      recording.set(true);

      // switch-wide first, then the partition's: both have a batch to send
      assertThat(sw.install(FlowMod.add(base("fd00::2/128", 2)))).isEmpty();
      CompletableFuture<Void> whole = controller.reconcile(1);
      CompletableFuture<Void> part =
          controller.reconcileScoped(
              1, ControlPlane.owned(Dz.parse("0")), List.of(content("001", 1)));
      CompletableFuture.allOf(whole, part).get(T.toSeconds(), TimeUnit.SECONDS);
      assertThat(sw.flows())
          .containsExactlyInAnyOrderElementsOf(concat(base, List.of(content("001", 1))));

      // the partition's first, then switch-wide
      assertThat(sw.install(FlowMod.add(base("fd00::3/128", 1)))).isEmpty();
      part =
          controller.reconcileScoped(
              1, ControlPlane.owned(Dz.parse("0")), List.of(content("010", 2)));
      whole = controller.reconcile(1);
      CompletableFuture.allOf(whole, part).get(T.toSeconds(), TimeUnit.SECONDS);
      assertThat(sw.flows())
          .containsExactlyInAnyOrderElementsOf(concat(base, List.of(content("010", 2))));
      assertThat(overlaps.get()).as("reads of the switch during another reconcile").isZero();
      assertThat(open.get()).isZero();
    }
  }

  private static List<FlowEntry> concat(List<FlowEntry> a, List<FlowEntry> b) {
    List<FlowEntry> out = new java.util.ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
