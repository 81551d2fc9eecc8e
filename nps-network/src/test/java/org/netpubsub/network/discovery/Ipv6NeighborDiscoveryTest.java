package org.netpubsub.network.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.network.discovery.NdCodecTest.H1;
import static org.netpubsub.network.discovery.NdCodecTest.H2;
import static org.netpubsub.network.discovery.NdCodecTest.M1;
import static org.netpubsub.network.discovery.NdCodecTest.M2;

import org.junit.jupiter.api.Test;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;
import org.netpubsub.network.topology.TopologyChange.HostAdded;
import org.netpubsub.network.topology.TopologyChange.HostMoved;

/** Host learning from punted ND frames, only at edge ports, and proxy advertisements. */
class Ipv6NeighborDiscoveryTest {
  /** Switch 1: port 1 to switch 2, ports 2 and 3 edge. */
  private final Topology t = Topology.EMPTY.addLink(Link.of(1, 1, 2, 1)).addSwitch(1, 2, 3);

  private static byte[] ns(java.util.function.Supplier<NdMessage> m) {
    return NdCodec.encode(m.get());
  }

  @Test
  void learnsTheSourceOfASolicitationAtAnEdgePort() {
    byte[] f = ns(() -> NdMessage.solicitation(M1, H1, H2));
    assertThat(Ipv6NeighborDiscovery.learn(t, 1, 2, f))
        .containsExactly(new HostAdded(new Host(H1, M1, SwitchPort.of(1, 2))));
    assertThat(Ipv6NeighborDiscovery.learn(t, 1, 1, f)).as("switch-to-switch port").isEmpty();
    assertThat(Ipv6NeighborDiscovery.learn(t, 1, 9, f)).as("unknown port").isEmpty();
    assertThat(Ipv6NeighborDiscovery.learn(t, 1, 0xfffffffeL, f)).as("LOCAL").isEmpty();
  }

  @Test
  void learnsTheTentativeAddressOfDadAndTheTargetOfAnAdvertisement() {
    assertThat(Ipv6NeighborDiscovery.learn(t, 1, 2, ns(() -> NdMessage.dad(M1, H1))))
        .containsExactly(new HostAdded(new Host(H1, M1, SwitchPort.of(1, 2))));
    byte[] na =
        NdCodec.encode(
            Ipv6NeighborDiscovery.advertisement(new Host(H2, M2, SwitchPort.of(7, 7)), M1, H1));
    assertThat(Ipv6NeighborDiscovery.learn(t, 1, 3, na))
        .containsExactly(new HostAdded(new Host(H2, M2, SwitchPort.of(1, 3))));
  }

  @Test
  void reportsMovesAndNothingForWhatIsKnown() {
    Host h = new Host(H1, M1, SwitchPort.of(1, 2));
    Topology known = t.addHost(h);
    byte[] una = NdCodec.encode(NdMessage.unsolicitedAdvertisement(M1, H1));
    assertThat(Ipv6NeighborDiscovery.learn(known, 1, 2, una)).isEmpty();
    assertThat(Ipv6NeighborDiscovery.learn(known, 1, 3, una))
        .containsExactly(new HostMoved(h, h.at(SwitchPort.of(1, 3))));
    assertThat(Ipv6NeighborDiscovery.learn(known, 1, 2, new byte[] {0})).isEmpty();
  }

  @Test
  void answersSolicitationsForKnownHostsOnly() {
    Topology known = t.addHost(new Host(H2, M2, SwitchPort.of(1, 3)));
    NdMessage ns = NdMessage.solicitation(M1, H1, H2);
    NdMessage na = Ipv6NeighborDiscovery.answer(known, ns).orElseThrow();
    assertThat(na.ethSrc()).isEqualTo(M2);
    assertThat(na.ethDst()).isEqualTo(M1);
    assertThat(na.src()).isEqualTo(H2);
    assertThat(na.dst()).isEqualTo(H1);
    assertThat(na.target()).isEqualTo(H2);
    assertThat(na.linkLayer()).contains(M2);
    assertThat(na.solicited()).isTrue();
    assertThat(na.override()).isTrue();
    assertThat(Ipv6NeighborDiscovery.answer(known, NdCodec.encode(ns)))
        .hasValueSatisfying(b -> assertThat(b).isEqualTo(NdCodec.encode(na)));
    assertThat(Ipv6NeighborDiscovery.answer(t, ns)).as("unknown target").isEmpty();
    assertThat(Ipv6NeighborDiscovery.answer(known, NdMessage.dad(M1, H2))).as("DAD").isEmpty();
    assertThat(Ipv6NeighborDiscovery.answer(known, NdMessage.solicitation(M2, H2, H2))).isEmpty();
  }
}
