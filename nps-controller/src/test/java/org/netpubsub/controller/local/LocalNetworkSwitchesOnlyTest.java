package org.netpubsub.controller.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.app.ControllerConfig;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;

/**
 * The warm-up's network of switches only: the same ten switches and sixteen cables as {@code nps
 * local}, discovered by the controller without waiting for its probe interval, with the test bed's
 * host ports alone and no data plane; its hosts, registered together, sit where the full network
 * would put them.
 */
class LocalNetworkSwitchesOnlyTest {
  @Test
  void theControllerLearnsTheCablesAndTheHostsAtTheTestBedsSlots() throws Exception {
    // an interval longer than the wait: the cables are probed when announced, not by the ticks
    NetworkController controller =
        NetworkController.start(
            ControllerConfig.defaults().withPort("127.0.0.1", 0).withProbeInterval(120_000));
    try (LocalNetwork net = LocalNetwork.switchesOnly(controller, Duration.ofSeconds(60))) {
      LocalTopology wiring = new LocalTopology(0);
      Set<Link> cables = new TreeSet<>(wiring.cables());
      assertThat(new TreeSet<>(controller.topology().links())).isEqualTo(cables);
      for (long dpid = 1; dpid <= 10; dpid++) {
        assertThat(controller.topology().ports(dpid))
            .as("switch %d's ports", dpid)
            .containsExactlyElementsOf(wiring.switchPorts().get(dpid));
      }

      List<Host> hosts = net.addHosts(8);

      LocalTopology full = new LocalTopology();
      for (int n = 1; n <= 8; n++) {
        Host h = hosts.get(n - 1);
        assertThat(h.address()).isEqualTo(LocalTopology.address(n));
        assertThat(h.attachment()).isEqualTo(full.attachment(n));
        assertThat(controller.topology().host(h.address())).contains(h);
      }
      assertThat(net.hosts()).hasSize(8);
      assertThatThrownBy(() -> net.addHosts(1))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("full (8 hosts)");
      assertThatThrownBy(net::switchAddress)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("no data plane");
    } finally {
      controller.close();
    }
  }
}
