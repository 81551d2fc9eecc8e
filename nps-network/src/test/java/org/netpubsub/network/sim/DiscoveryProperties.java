package org.netpubsub.network.sim;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.network.forwarding.Reachability;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * On random networks (parallel links, several components, hosts anywhere), one LLDP round and the
 * hosts' DAD teach the controller exactly the wiring, and its flows then connect every pair that is
 * physically connected.
 */
class DiscoveryProperties {

  @Property(tries = 200)
  void discoveryLearnsExactlyTheWiring(
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 12) int switches,
      @ForAll @IntRange(min = 0, max = 14) int extra,
      @ForAll boolean connected,
      @ForAll long nonce) {
    Topology wiring = TestTopologies.random(seed, switches, extra, connected, 0.4);
    SimulatedNetwork net = SimulatedNetwork.of(wiring);
    ControllerLoop controller = new ControllerLoop(net, nonce);
    controller.reconcile();
    controller.tick(0);
    assertThat(controller.believed.links()).isEqualTo(wiring.links());
    controller.hostsAnnounce();
    assertThat(controller.believed).isEqualTo(wiring);
    controller.reconcile();
    int hosts = wiring.hosts().size();
    assertThat(Reachability.checkAllPairs(net, wiring)).isEqualTo(hosts * (hosts - 1));
  }
}
