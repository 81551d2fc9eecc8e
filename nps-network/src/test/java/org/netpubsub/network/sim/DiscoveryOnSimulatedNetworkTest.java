package org.netpubsub.network.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.discovery.Ipv6NeighborDiscovery;
import org.netpubsub.network.discovery.NdCodec;
import org.netpubsub.network.discovery.NdMessage;
import org.netpubsub.network.forwarding.Reachability;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;
import org.netpubsub.network.topology.TopologyChange.LinkAdded;
import org.netpubsub.network.topology.TopologyChange.LinkRemoved;

/**
 * Discovery through the simulated fat tree, as the controller will run it: LLDP probes sent as
 * packet-outs come back as packet-ins at the peer (the app's LLDP rule punts them) and reveal
 * exactly the wiring; a failed link expires after three probe intervals; hosts are learned from
 * their duplicate address detection; the learned topology routes every pair.
 */
class DiscoveryOnSimulatedNetworkTest {
  private final Topology fatTree = TestTopologies.fatTree(4);
  private final SimulatedNetwork net = SimulatedNetwork.of(fatTree);
  private final ControllerLoop controller = new ControllerLoop(net, 0x5eed);

  @Test
  void oneProbeRoundFindsExactlyTheThirtyTwoLinks() {
    controller.reconcile(); // control flows only: no links or hosts known yet
    controller.tick(0);
    assertThat(controller.believed.links()).isEqualTo(fatTree.links()).hasSize(32);
    assertThat(controller.changes).hasSize(32).allMatch(c -> c instanceof LinkAdded);
    assertThat(controller.discovery.probes(1, controller.believed.switchPorts())).isEmpty();
  }

  @Test
  void aFailedLinkExpiresAfterThreeIntervalsAndIsRoutedAround() {
    controller.reconcile();
    controller.tick(0);
    Link failed = Link.of(0x200, 3, 0x100, 1);
    assertThat(fatTree.links()).contains(failed);
    net.setLinkUp(failed, false);
    controller.changes.clear();
    controller.tick(5_000);
    controller.tick(10_000);
    assertThat(controller.changes).isEmpty();
    controller.tick(14_999);
    assertThat(controller.changes).isEmpty();
    controller.tick(15_000);
    assertThat(controller.changes).containsExactly(new LinkRemoved(failed));
    assertThat(controller.believed.links()).hasSize(31);
    // The link comes back: the next round learns it again.
    net.setLinkUp(failed, true);
    controller.tick(20_000);
    assertThat(controller.believed.links()).isEqualTo(fatTree.links());
  }

  @Test
  void aPortDownRemovesTheLinkAtOnce() {
    controller.reconcile();
    controller.tick(0);
    SwitchPort port = SwitchPort.of(0x300, 1);
    net.setPortUp(port, false);
    controller.apply(controller.discovery.onPortDown(port.dpid(), port.port()));
    assertThat(controller.believed.links()).hasSize(31);
    assertThat(controller.believed.linkAt(port)).isEmpty();
  }

  @Test
  void hostsAreLearnedFromDadAndTheLearnedTopologyRoutesEveryPair() {
    controller.reconcile();
    controller.tick(0);
    controller.hostsAnnounce();
    assertThat(controller.believed).isEqualTo(fatTree);
    controller.reconcile();
    assertThat(net.hostNames()).hasSize(16);
    assertThat(Reachability.checkAllPairs(net, controller.believed)).isEqualTo(240);
  }

  @Test
  void solicitationsArePuntedAndTheProxyAnswerReachesTheAsker() {
    controller.reconcile();
    controller.tick(0);
    controller.hostsAnnounce();
    controller.reconcile();
    Host h1 = net.host("h1");
    Host h9 = net.host("h9");
    NdMessage ns = NdMessage.solicitation(h1.mac(), h1.address(), h9.address());
    Trace asked = net.send("h1", ns.headers(), new Payload(NdCodec.encode(ns)));
    assertThat(asked.deliveries()).isEmpty();
    assertThat(asked.packetIns()).hasSize(1);
    Trace.PacketIn pi = asked.packetIns().get(0);
    byte[] answer =
        Ipv6NeighborDiscovery.answer(controller.believed, pi.payload().bytes()).orElseThrow();
    NdMessage na = NdCodec.decode(answer).toOptional().orElseThrow();
    Trace replied = net.packetOut(pi.dpid(), pi.inPort(), na.headers(), new Payload(answer));
    assertThat(replied.deliveries())
        .containsExactly(new Trace.Delivery("h1", na.headers(), new Payload(answer), 0));
    assertThat(na.linkLayer()).contains(h9.mac());
    assertThat(List.of(na.target(), na.dst())).containsExactly(h9.address(), h1.address());
  }
}
