package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

class MatchTest {
  private static final PacketHeaders UDP6 =
      PacketHeaders.udp6(
          Ipv6Address.parse("2001:db8::1"), Ipv6Address.parse("ff0e:c123::9"), 1000, 5000);

  @Test
  void prerequisitesFollowOpenFlow13() {
    assertThat(Match.builder().ipv6Dst("ff0e::/16").build().prerequisiteError())
        .contains(OpenFlowError.OFPBMC_BAD_PREREQ);
    assertThat(Match.builder().ethType(0x0800).ipv6Dst("ff0e::/16").build().prerequisiteError())
        .contains(OpenFlowError.OFPBMC_BAD_PREREQ);
    assertThat(Match.builder().ipProto(17).build().prerequisiteError())
        .contains(OpenFlowError.OFPBMC_BAD_PREREQ);
    assertThat(Match.builder().ipv6().udpDst(5).build().prerequisiteError())
        .contains(OpenFlowError.OFPBMC_BAD_PREREQ);
    assertThat(Match.builder().ipv6().ipProto(6).udpDst(5).build().prerequisiteError())
        .contains(OpenFlowError.OFPBMC_BAD_PREREQ);
    assertThat(Match.builder().udp6().udpDst(5).ipv6Dst("ff0e::/16").build().prerequisiteError())
        .isEmpty();
    assertThat(Match.builder().ethType(0x0800).ipProto(17).udpSrc(1).build().prerequisiteError())
        .isEmpty();
    assertThat(Match.ANY.prerequisiteError()).isEmpty();
  }

  @Test
  void matchesEachField() {
    Match m =
        Match.builder()
            .inPort(3)
            .udp6()
            .ipv6Dst("ff0e:c000::/ffff:e000::")
            .ipv6Src("2001:db8::/32")
            .udpDst(5000)
            .udpSrc(1000)
            .metadata(0x5, 0xf)
            .build();
    assertThat(m.matches(UDP6, 3, 0x25)).isTrue();
    assertThat(m.matches(UDP6, 2, 0x25)).as("in_port").isFalse();
    assertThat(m.matches(UDP6, 3, 0x26)).as("metadata").isFalse();
    assertThat(m.matches(UDP6.withIpv6Dst(Ipv6Address.parse("ff0e:e000::")), 3, 5)).isFalse();
    assertThat(m.matches(UDP6.withIpv6Src(Ipv6Address.parse("2001:db9::1")), 3, 5)).isFalse();
    assertThat(m.matches(UDP6.withUdpDst(5001), 3, 5)).isFalse();
    assertThat(m.matches(UDP6.withUdpSrc(1001), 3, 5)).isFalse();
  }

  @Test
  void aFieldThePacketLacksNeverMatches() {
    PacketHeaders ipv4 = new PacketHeaders(0x0800, null, null, 17, 1, 2);
    // Even without its prerequisite in the match, an IPv6 constraint cannot match IPv4.
    assertThat(Match.builder().ipv6Dst("::/0").build().matches(ipv4, 1, 0)).isTrue();
    assertThat(Match.builder().ipv6Dst("::/1").build().matches(ipv4, 1, 0)).isFalse();
    assertThat(Match.builder().udpDst(2).build().matches(ipv4, 1, 0)).isTrue();
    PacketHeaders arp = new PacketHeaders(0x0806, null, null, 0, 0, 0);
    assertThat(Match.builder().ipProto(0).build().matches(arp, 1, 0)).isFalse();
  }

  @Test
  void zeroMasksAreWildcardsAndValuesAreMasked() {
    Match m = Match.builder().ipv6().ipv6Dst("ff0e::/0").metadata(7, 0).build();
    assertThat(m).isEqualTo(Match.builder().ipv6().build());
    assertThat(Match.builder().metadata(0xff, 0x0f).build())
        .isEqualTo(Match.builder().metadata(0x0f, 0x0f).build());
  }

  @Test
  void rejectsOutOfRangeValues() {
    assertThatThrownBy(() -> Match.builder().udpDst(70000).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Match.builder().ethType(-1).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Match.builder().ipProto(256).build())
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void headersOfAbsentLayersAreZeroed() {
    PacketHeaders ipv4 =
        new PacketHeaders(0x0800, Ipv6Address.ALL_ONES, Ipv6Address.ALL_ONES, 6, 9, 9);
    assertThat(ipv4).isEqualTo(new PacketHeaders(0x0800, null, null, 6, 0, 0));
    assertThat(ipv4.isUdp()).isFalse();
    assertThat(UDP6.isUdp()).isTrue();
  }
}
