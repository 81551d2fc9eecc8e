package org.netpubsub.controller.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;

/** The local network's wiring is the test bed's PLEROMA fat tree, and host slots never clash. */
class LocalTopologyTest {
  final LocalTopology t = new LocalTopology();

  @Test
  void sixteenCablesOnDistinctExistingPortsAndHostsWhereTheTestBedHasThem() {
    assertThat(t.cables()).hasSize(16);
    Set<SwitchPort> used = new HashSet<>();
    for (Link l : t.cables()) {
      for (SwitchPort p : new SwitchPort[] {l.a(), l.b()}) {
        assertThat(t.switchPorts().get(p.dpid())).contains(p.port());
        assertThat(used.add(p)).as("%s used once", p).isTrue();
        assertThat(t.peer(p)).isPresent();
      }
    }
    assertThat(t.attachment(1)).isEqualTo(SwitchPort.of(7, 1));
    assertThat(t.attachment(8)).isEqualTo(SwitchPort.of(10, 2));
    for (int n = 1; n <= t.capacity(); n++) {
      SwitchPort p = t.attachment(n);
      assertThat(t.peer(p)).as("host %d on a host port", n).isEmpty();
      assertThat(t.switchPorts().get(p.dpid())).contains(p.port());
      assertThat(used.add(p)).as("host %d alone on its port", n).isTrue();
      assertThat(t.slotOf(LocalTopology.address(n))).contains(n);
    }
    assertThatThrownBy(() -> t.attachment(t.capacity() + 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(t.slotOf(LocalTopology.address(t.capacity() + 1))).isEmpty();
  }

  @Test
  void withoutExtraPortsTheSameCablesAndOnlyTheTestBedsHosts() {
    LocalTopology bare = new LocalTopology(0);

    assertThat(bare.cables()).isEqualTo(t.cables());
    assertThat(bare.capacity()).isEqualTo(8);
    for (long dpid = 1; dpid <= 10; dpid++) {
      assertThat(bare.switchPorts().get(dpid)).containsExactly(1L, 2L, 3L, 4L);
    }
    for (int n = 1; n <= 8; n++) {
      assertThat(bare.attachment(n)).isEqualTo(t.attachment(n));
    }
    assertThatThrownBy(() -> bare.attachment(9)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LocalTopology(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("extra ports per edge switch");
  }
}
