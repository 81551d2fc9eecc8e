package org.netpubsub.controller.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.Dz;
import org.netpubsub.controller.flows.FlowRefusedException;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * The controller as flow service: an owner's deltas reach the store and the switch, acknowledged; a
 * batch outside the owner's layout space is refused before anything changes; a reconcile keeps what
 * the store holds; two reconciles of one switch at once take turns; a reconnect is reconciled once.
 */
class FlowServiceTest {
  private static final Duration T = Duration.ofSeconds(10);
  private NetworkController controller;
  private SimulatedOpenFlowSwitch sw;

  @BeforeEach
  void start() throws Exception {
    controller = NetworkController.start(ControllerConfig.defaults().withPort("127.0.0.1", 0));
    sw = SimulatedOpenFlowSwitch.builder().dpid(1).ports(1, 2).build();
    sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
    Wait.until("the switch joined", T, () -> {}, () -> controller.connectedSwitches().contains(1L));
  }

  @AfterEach
  void stop() {
    sw.close();
    controller.close();
  }

  private int apply(Owner owner, FlowEntry f) throws Exception {
    SortedMap<Long, List<SwitchMod>> mods = new TreeMap<>();
    mods.put(1L, SwitchMod.flows(List.of(FlowMod.add(f))));
    return controller
        .callOnLoop(() -> controller.apply(owner, mods))
        .thenCompose(x -> x)
        .get(10, TimeUnit.SECONDS);
  }

  @Test
  void anOwnersDeltaReachesTheStoreAndTheSwitch() throws Exception {
    FlowEntry f = ContentFlows.entry(Dz.parse("01"), new java.util.TreeSet<>());
    FlowEntry content = f.toBuilder().apply(Action.output(2)).build();
    assertThat(apply(Owner.PUBSUB_CONTENT, content)).isEqualTo(1);
    assertThat(sw.flows()).contains(content);
    assertThat(controller.desired(1).flows()).contains(content);
    controller.reconcile(1).get(10, TimeUnit.SECONDS);
    assertThat(sw.flows()).as("the reconcile reads the store").contains(content);
  }

  @Test
  void aModOutsideTheOwnersSpaceIsRefused() throws Exception {
    FlowEntry content =
        ContentFlows.entry(Dz.parse("1"), new java.util.TreeSet<>()).toBuilder()
            .apply(Action.output(2))
            .build();
    assertThatThrownBy(() -> apply(Owner.MULTICAST_GROUPS, content))
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(FlowRefusedException.class)
        .hasMessageContaining("MULTICAST_GROUPS");
    assertThat(controller.desired(1).flows()).doesNotContain(content);
    assertThat(sw.flows()).doesNotContain(content);
  }

  /**
   * Two reconciles of one switch asked for at once (an app's while another, or a topology change's,
   * is in flight) must not both plan from one read: both would send an ADD for a group the switch
   * lacks, and the second fail with OFPGMFC_GROUP_EXISTS (LinkLoadMonitorTest failed so under
   * load). The second runs after the first, on a fresh read.
   */
  @Test
  void twoReconcilesAtOnceAddANewGroupOnce() throws Exception {
    controller.register(Owner.MULTICAST_GROUPS, next -> {}).get(10, TimeUnit.SECONDS);
    long id = SwitchLayout.space(Owner.MULTICAST_GROUPS).firstGroup();
    GroupEntry group = GroupEntry.of(id, GroupType.ALL, Bucket.of(Action.output(2)));
    // one loop task: the store changes, and both reconciles are queued back to back on the loop,
    // so both read the switch before either's ADD can arrive
    List<CompletableFuture<Void>> both =
        controller
            .callOnLoop(
                () -> {
                  controller.replace(Owner.MULTICAST_GROUPS, 1, List.of(), List.of(group));
                  return List.of(controller.reconcile(1), controller.reconcile(1));
                })
            .get(10, TimeUnit.SECONDS);
    for (CompletableFuture<Void> f : both) {
      f.get(10, TimeUnit.SECONDS); // throws with OFPGMFC_GROUP_EXISTS if both sent the ADD
    }
    assertThat(sw.groups()).containsExactly(group);
  }

  /**
   * A switch that reconnects is reconciled once, by the controller in turn with its other
   * reconciles. The southbound used to reconcile it too, beside the controller's: both read the
   * switch, and when both read it before either's ADD arrived, both sent the ADD of the group it
   * had lost and one failed with OFPGMFC_GROUP_EXISTS (14 of 20 reconnects on OVS).
   */
  @Test
  void aReconnectIsReconciledOnceWithExactlyTheMissingGroup() throws Exception {
    controller.register(Owner.MULTICAST_GROUPS, next -> {}).get(10, TimeUnit.SECONDS);
    long id = SwitchLayout.space(Owner.MULTICAST_GROUPS).firstGroup();
    GroupEntry group = GroupEntry.of(id, GroupType.ALL, Bucket.of(Action.output(2)));
    controller
        .callOnLoop(() -> controller.replace(Owner.MULTICAST_GROUPS, 1, List.of(), List.of(group)))
        .get(10, TimeUnit.SECONDS);
    controller.reconcile(1).get(10, TimeUnit.SECONDS); // after every reconcile of the connect
    var metrics = controller.server().metrics();
    long reconciles = metrics.reconciles();
    long failures = metrics.reconcileFailures();
    int reconnects = 8;
    for (int i = 1; i <= reconnects; i++) {
      sw.disconnect();
      Wait.until("disconnect seen", T, () -> !controller.connectedSwitches().contains(1L));
      assertThat(sw.install(GroupMod.delete(id))).isEmpty(); // the switch lost the group
      sw.clearReceived();
      sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
      long expected = reconciles + i;
      Wait.until("reconnect " + i + " reconciled", T, () -> metrics.reconciles() >= expected);
      assertThat(sw.groups()).containsExactly(group);
      assertThat(sw.receivedMods())
          .as("reconnect %d: only the lost group is added, once", i)
          .containsExactly(SwitchMod.of(GroupMod.add(group)));
    }
    controller.reconcile(1).get(10, TimeUnit.SECONDS); // completes after any reconcile in turn
    assertThat(metrics.reconcileFailures()).isEqualTo(failures);
    assertThat(metrics.reconciles())
        .as("one reconcile per reconnect, and the last one asked for")
        .isEqualTo(reconciles + reconnects + 1);
  }
}
