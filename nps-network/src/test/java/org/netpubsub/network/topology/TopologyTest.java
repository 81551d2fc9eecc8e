package org.netpubsub.network.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.TopologyChange.HostAdded;
import org.netpubsub.network.topology.TopologyChange.HostMoved;
import org.netpubsub.network.topology.TopologyChange.HostRemoved;
import org.netpubsub.network.topology.TopologyChange.LinkAdded;
import org.netpubsub.network.topology.TopologyChange.LinkRemoved;

/** Updates of the immutable topology and its simple queries. */
class TopologyTest {
  private static final Ipv6Address H1 = Ipv6Address.parse("2001:db8::1");
  private static final MacAddress M1 = MacAddress.parse("02:00:00:00:00:01");
  private static final Link L12 = Link.of(1, 1, 2, 1);
  private static final Link L23 = Link.of(2, 2, 3, 1);

  private final Topology line = Topology.EMPTY.addLink(L12).addLink(L23).addSwitch(1, 3);

  @Test
  void linksAreUndirectedAndAddSwitchesAndPorts() {
    assertThat(Link.of(2, 1, 1, 1)).isEqualTo(L12);
    assertThat(L12.a()).isEqualTo(SwitchPort.of(1, 1));
    assertThat(line.switches()).containsExactly(1L, 2L, 3L);
    assertThat(line.ports(1)).containsExactly(1L, 3L);
    assertThat(line.neighbours(2)).containsExactly(1L, 3L);
    assertThat(line.linkAt(SwitchPort.of(3, 1))).contains(L23);
    assertThat(line.isEdgePort(SwitchPort.of(1, 3))).isTrue();
    assertThat(line.isEdgePort(SwitchPort.of(1, 1))).isFalse();
    assertThat(line.isEdgePort(SwitchPort.of(1, 9))).isFalse();
    assertThat(line.edgePorts()).containsExactly(SwitchPort.of(1, 3));
  }

  @Test
  void updatesReturnNewValuesAndLeaveTheOldOnesAlone() {
    Topology without = line.removeLink(L23);
    assertThat(line.links()).containsExactly(L12, L23);
    assertThat(without.links()).containsExactly(L12);
    assertThat(without.switches()).containsExactly(1L, 2L, 3L);
    assertThat(line.addLink(L12)).isSameAs(line);
    assertThat(line.removeLink(Link.of(7, 1, 8, 1))).isSameAs(line);
    assertThat(line.removeLink(L23).addLink(L23)).isEqualTo(line);
  }

  @Test
  void parallelLinksAreKeptApart() {
    Topology t = line.addLink(Link.of(1, 2, 2, 3));
    assertThat(t.links()).hasSize(3);
    assertThat(t.neighbours(1)).containsExactly(2L);
    assertThat(t.hopsFrom(1)).extracting(h -> h.from().port()).containsExactly(1L, 2L);
    assertThat(t.nextHop(1, 3)).contains(new Hop(SwitchPort.of(1, 1), SwitchPort.of(2, 1)));
    assertThat(t.removeLink(L12).nextHop(1, 3))
        .contains(new Hop(SwitchPort.of(1, 2), SwitchPort.of(2, 3)));
  }

  @Test
  void aPortHasOnePeerSoRecablingReplacesTheLink() {
    Link recabled = Link.of(1, 1, 3, 2);
    Topology t = line.addLink(recabled);
    assertThat(t.links()).containsExactly(recabled, L23);
  }

  @Test
  void portDownRemovesItsLinkButKeepsThePort() {
    Topology t = line.portDown(SwitchPort.of(3, 1));
    assertThat(t.links()).containsExactly(L12);
    assertThat(t.ports(3)).containsExactly(1L);
    assertThat(t.isEdgePort(SwitchPort.of(3, 1))).isTrue();
    assertThat(t.portDown(SwitchPort.of(3, 1))).isSameAs(t);
  }

  @Test
  void hostsOnlyAtEdgePortsAndMoveAndGo() {
    Host h = new Host(H1, M1, SwitchPort.of(1, 3));
    Topology t = line.addHost(h);
    assertThat(t.host(H1)).contains(h);
    assertThat(t.hostsAt(SwitchPort.of(1, 3))).containsExactly(h);
    assertThatThrownBy(() -> line.addHost(h.at(SwitchPort.of(1, 1))))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> line.addHost(h.at(SwitchPort.of(9, 1))))
        .isInstanceOf(IllegalArgumentException.class);
    Topology moved = t.moveHost(H1, SwitchPort.of(3, 2));
    assertThat(moved.host(H1)).contains(h.at(SwitchPort.of(3, 2)));
    assertThat(moved.ports(3)).containsExactly(1L, 2L);
    assertThat(moved.removeHost(H1).hosts()).isEmpty();
    assertThatThrownBy(() -> line.moveHost(H1, SwitchPort.of(3, 2)))
        .isInstanceOf(IllegalArgumentException.class);
    // A link found later at a host's port means the host was never there.
    assertThat(t.addLink(Link.of(1, 3, 3, 5)).hosts()).isEmpty();
  }

  @Test
  void removeSwitchTakesItsLinksAndHosts() {
    Topology t = line.addHost(new Host(H1, M1, SwitchPort.of(1, 3))).removeSwitch(1);
    assertThat(t.switches()).containsExactly(2L, 3L);
    assertThat(t.links()).containsExactly(L23);
    assertThat(t.hosts()).isEmpty();
  }

  @Test
  void changesApplyAsValues() {
    Host h = new Host(H1, M1, SwitchPort.of(1, 3));
    Topology t =
        line.applyAll(
            List.of(
                new LinkRemoved(L23),
                new HostAdded(h),
                new HostMoved(h, h.at(SwitchPort.of(3, 1))),
                new LinkAdded(Link.of(1, 4, 3, 4))));
    assertThat(t.links()).containsExactly(L12, Link.of(1, 4, 3, 4));
    assertThat(t.host(H1)).contains(h.at(SwitchPort.of(3, 1)));
    assertThat(t.apply(new HostRemoved(h)).hosts()).isEmpty();
    // Learned before the port turned out to be a link port: stale, ignored.
    assertThat(t.apply(new HostAdded(h.at(SwitchPort.of(1, 1))))).isSameAs(t);
    assertThat(t.apply(new HostMoved(h, h.at(SwitchPort.of(9, 1))))).isSameAs(t);
  }

  @Test
  void unsignedDpidsOrderAndPaths() {
    long big = 0x8000_0000_0000_0001L;
    Topology t = Topology.EMPTY.addLink(Link.of(big, 1, 5, 1)).addLink(Link.of(5, 2, 7, 1));
    assertThat(t.switches()).containsExactly(5L, 7L, big);
    assertThat(t.shortestPath(big, 7).orElseThrow().switches()).containsExactly(big, 5L, 7L);
    assertThat(t.center()).hasValue(5L);
    assertThat(t.isConnected()).isTrue();
    assertThat(t.addSwitch(9).isConnected()).isFalse();
  }

  @Test
  void fatTreeHasItsShape() {
    Topology ft = TestTopologies.fatTree(4);
    assertThat(ft.switches()).hasSize(20);
    assertThat(ft.links()).hasSize(32);
    assertThat(ft.hosts()).hasSize(16);
    assertThat(ft.isConnected()).isTrue();
    // Core switches reach every edge switch in 2 hops; the center is the lowest core switch.
    assertThat(ft.center()).hasValue(0x100L);
    SpanningTree tree = ft.spanningTree().orElseThrow();
    assertThat(tree.height()).isEqualTo(4);
    assertThat(tree.children(0x100)).containsExactly(0x200L, 0x202L, 0x204L, 0x206L);
    assertThat(ft.shortestPath(0x300, 0x307).orElseThrow().length()).isEqualTo(4);
  }

  @Test
  void macAddressesParseAndPrint() {
    assertThat(MacAddress.parse("0A-1b-2c-3d-4e-5f").toString()).isEqualTo("0a:1b:2c:3d:4e:5f");
    assertThat(MacAddress.parse("01:80:c2:00:00:0e").isMulticast()).isTrue();
    assertThat(M1.isMulticast()).isFalse();
    assertThatThrownBy(() -> MacAddress.parse("1:2:3"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> MacAddress.parse("+1:2:3:4:5:6"))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
