package org.netpubsub.network.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.network.discovery.NdCodecTest.H1;
import static org.netpubsub.network.discovery.NdCodecTest.H2;
import static org.netpubsub.network.discovery.NdCodecTest.M1;
import static org.netpubsub.network.discovery.NdCodecTest.M2;

import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
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

  /** Issue 27: ND from endless (spoofed) sources at one port grows the topology no further. */
  @Test
  void aFullPortLearnsNoFurtherHostsButItsOwnStillMoveAndChange() {
    Topology full = t;
    for (int i = 0; i < Ipv6NeighborDiscovery.MAX_HOSTS_PER_PORT; i++) {
      full = full.addHost(new Host(host(i), M2, SwitchPort.of(1, 2)));
    }
    long[] now = {1_000};
    HostRefusals refused = new HostRefusals(() -> now[0]);
    byte[] newcomer = ns(() -> NdMessage.solicitation(M1, H1, H2));
    assertThat(Ipv6NeighborDiscovery.learn(full, 1, 2, newcomer, refused))
        .as("one more: none")
        .isEmpty();
    assertThat(refused.count(HostRefusals.Reason.PORT_FULL)).isEqualTo(1);
    assertThat(Ipv6NeighborDiscovery.learn(full, 1, 3, newcomer, refused)).hasSize(1); // another
    Topology oneLess = full.removeHost(host(0));
    assertThat(Ipv6NeighborDiscovery.learn(oneLess, 1, 2, newcomer, refused))
        .containsExactly(new HostAdded(new Host(H1, M1, SwitchPort.of(1, 2))));
    // a host already at the full port may change its MAC there; one elsewhere may not move in
    Host first = new Host(host(1), M2, SwitchPort.of(1, 2));
    byte[] newMac = NdCodec.encode(NdMessage.unsolicitedAdvertisement(M1, host(1)));
    assertThat(Ipv6NeighborDiscovery.learn(full, 1, 2, newMac, refused))
        .containsExactly(new HostMoved(first, new Host(host(1), M1, SwitchPort.of(1, 2))));
    assertThat(refused.count(HostRefusals.Reason.PORT_FULL)).as("learnt: not counted").isEqualTo(1);
    Topology elsewhere = full.addHost(new Host(H1, M1, SwitchPort.of(1, 3)));
    byte[] moveIn = NdCodec.encode(NdMessage.unsolicitedAdvertisement(M1, H1));
    assertThat(Ipv6NeighborDiscovery.learn(elsewhere, 1, 2, moveIn, refused)).isEmpty();
    assertThat(refused.count(HostRefusals.Reason.MOVE_TO_FULL_PORT)).isEqualTo(1);
    assertThat(refused.count(HostRefusals.Reason.PORT_FULL)).isEqualTo(1);
  }

  /** The refusals' log: the first at once, then one line a minute counting those in between. */
  @Test
  void refusalsAreLoggedAtMostOnceAMinuteNamingThePort() {
    long[] now = {0};
    HostRefusals refused = new HostRefusals(() -> now[0]);
    SwitchPort at = SwitchPort.of(0xab, 2);
    assertThat(refused.refused(HostRefusals.Reason.PORT_FULL, at, H1))
        .hasValueSatisfying(
            l ->
                assertThat(l)
                    .contains("switch ab port 2", H1.toString(), "port_full", "1 refusal"));
    for (int i = 0; i < 1_000; i++) {
      now[0] = i * 50L; // 1 000 refusals over 50 s
      assertThat(refused.refused(HostRefusals.Reason.PORT_FULL, at, H1)).isEmpty();
    }
    now[0] = HostRefusals.LOG_INTERVAL_MILLIS;
    assertThat(refused.refused(HostRefusals.Reason.MOVE_TO_FULL_PORT, SwitchPort.of(1, 3), H2))
        .hasValueSatisfying(
            l -> assertThat(l).contains("switch 1 port 3", "move_to_full_port", "1001 refusals"));
    assertThat(refused.count(HostRefusals.Reason.PORT_FULL)).isEqualTo(1_001);
    assertThat(refused.count(HostRefusals.Reason.MOVE_TO_FULL_PORT)).isEqualTo(1);
  }

  private static Ipv6Address host(int i) {
    return Ipv6Address.parse("fd6e:7073:9::" + Integer.toHexString(i + 1));
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
