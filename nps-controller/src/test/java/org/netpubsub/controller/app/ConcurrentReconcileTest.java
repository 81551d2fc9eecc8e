package org.netpubsub.controller.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.controller.testing.Wait;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupType;

/**
 * Two reconciles of one switch asked for at once (an app's {@link NetworkController#reconcile}
 * while another, or a topology change's, is in flight) must not both plan from the same read: both
 * would send an ADD for a group the switch lacks, and the second fails with OFPGMFC_GROUP_EXISTS
 * (LinkLoadMonitorTest failed so under load). The second runs after the first, on a fresh read.
 */
class ConcurrentReconcileTest {
  private static final Duration T = Duration.ofSeconds(10);
  private NetworkController controller;
  private SimulatedOpenFlowSwitch sw;

  @BeforeEach
  void start() throws Exception {
    controller = NetworkController.start(ControllerConfig.defaults().withPort("127.0.0.1", 0));
    sw = SimulatedOpenFlowSwitch.builder().dpid(1).ports(1, 2).build();
    sw.connect(new InetSocketAddress("127.0.0.1", controller.openflowAddress().getPort())).get();
    Wait.until("the switch joined", T, () -> {}, () -> controller.connectedSwitches().contains(1L));
    controller.register(Owner.MULTICAST_GROUPS, next -> {}).get(10, TimeUnit.SECONDS);
  }

  @AfterEach
  void stop() {
    sw.close();
    controller.close();
  }

  @Test
  void twoReconcilesAtOnceAddANewGroupOnce() throws Exception {
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
}
