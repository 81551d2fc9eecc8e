package org.netpubsub.network.camus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.Topology;

/** The fat tree is numbered exactly as the Mininet test bed numbers it. */
class FatTreeTest {
  /**
   * {@code fattree(4).links} of testbed/nps_testbed/topologies.py, printed as "a a_port b b_port".
   */
  static final String TESTBED_K4 =
      "s13 1 h1 0;s13 2 h2 0;s14 1 h3 0;s14 2 h4 0;s15 1 h5 0;s15 2 h6 0;s16 1 h7 0;s16 2 h8 0;"
          + "s17 1 h9 0;s17 2 h10 0;s18 1 h11 0;s18 2 h12 0;s19 1 h13 0;s19 2 h14 0;s20 1 h15 0;"
          + "s20 2 h16 0;s5 1 s13 3;s6 1 s13 4;s5 2 s14 3;s6 2 s14 4;s7 1 s15 3;s8 1 s15 4;"
          + "s7 2 s16 3;s8 2 s16 4;s9 1 s17 3;s10 1 s17 4;s9 2 s18 3;s10 2 s18 4;s11 1 s19 3;"
          + "s12 1 s19 4;s11 2 s20 3;s12 2 s20 4;s5 3 s1 1;s5 4 s2 1;s6 3 s3 1;s6 4 s4 1;"
          + "s7 3 s1 2;s7 4 s2 2;s8 3 s3 2;s8 4 s4 2;s9 3 s1 3;s9 4 s2 3;s10 3 s3 3;s10 4 s4 3;"
          + "s11 3 s1 4;s11 4 s2 4;s12 3 s3 4;s12 4 s4 4";

  @Test
  void k4MatchesTheTestBedLinkForLink() {
    Topology t = FatTree.of(4);
    assertThat(t.switches()).hasSize(20);
    assertThat(t.links()).hasSize(32);
    assertThat(t.hosts()).hasSize(16);
    List<Link> links = new ArrayList<>();
    for (String l : TESTBED_K4.split(";")) {
      String[] f = l.split(" ");
      long a = Long.parseLong(f[0].substring(1));
      if (f[2].startsWith("h")) {
        int n = Integer.parseInt(f[2].substring(1));
        Host h = t.host(FatTree.hostAddress(n)).orElseThrow();
        assertThat(h.attachment().dpid()).as(l).isEqualTo(a);
        assertThat(h.attachment().port()).as(l).isEqualTo(Long.parseLong(f[1]));
        assertThat(h.mac()).isEqualTo(FatTree.hostMac(n));
      } else {
        links.add(
            Link.of(
                a, Long.parseLong(f[1]), Long.parseLong(f[2].substring(1)), Long.parseLong(f[3])));
      }
    }
    assertThat(t.links()).containsExactlyInAnyOrderElementsOf(links);
  }

  @Test
  void addressesAreTheTestBedsAndReadBack() {
    assertThat(FatTree.hostAddress(12).toString()).isEqualTo("fd6e:7073:1::12");
    assertThat(FatTree.hostMac(143).toString()).isEqualTo("02:6e:70:73:01:43");
    for (int n : new int[] {1, 9, 10, 16, 128, 9999}) {
      assertThat(FatTree.hostNumber(FatTree.hostAddress(n))).isEqualTo(n);
    }
    for (String notOurs : new String[] {"fd6e:7073:1::1a", "fd6e:7073:2::1", "fd6e:7073:1::1:1"}) {
      assertThatThrownBy(() -> FatTree.hostNumber(Ipv6Address.parse(notOurs)))
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void sizesAndBadK() {
    for (int k : new int[] {2, 4, 6, 8}) {
      Topology t = FatTree.of(k);
      assertThat(t.switches()).hasSize(5 * k * k / 4);
      assertThat(t.hosts()).hasSize(k * k * k / 4);
      assertThat(t.links()).hasSize(k * k * k / 2);
      assertThat(FatTree.edge(k, k - 1, k / 2 - 1)).isEqualTo(5L * k * k / 4);
    }
    assertThatThrownBy(() -> FatTree.of(3)).hasMessageContaining("even");
    assertThatThrownBy(() -> FatTree.of(36)).hasMessageContaining("more than 9999 hosts");
  }
}
