package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

/** The icmpv6_type match field: prerequisites, matching, algebra, ovs-ofctl syntax. */
class Icmpv6TypeTest {
  private static final Ipv6Address A = Ipv6Address.parse("2001:db8::1");
  private static final Ipv6Address B = Ipv6Address.parse("ff02::1:ff00:2");
  private static final Match NS = Match.builder().icmp6().icmpv6Type(135).build();

  @Test
  void needsIcmpv6() {
    assertThat(NS.prerequisiteError()).isEmpty();
    assertThat(Match.builder().ipv6().icmpv6Type(135).build().prerequisiteError())
        .contains(OpenFlowError.OFPBMC_BAD_PREREQ);
    assertThat(
            Match.builder().ethType(0x0800).ipProto(58).icmpv6Type(1).build().prerequisiteError())
        .contains(OpenFlowError.OFPBMC_BAD_PREREQ);
  }

  @Test
  void headersKeepTheTypeOnlyForIcmpv6() {
    assertThat(PacketHeaders.icmp6(A, B, 135).icmpv6Type()).isEqualTo(135);
    assertThat(new PacketHeaders(0x86dd, A, B, 17, 1, 2, 135).icmpv6Type()).isZero();
    assertThat(new PacketHeaders(0x86dd, A, B, 58, 1, 2)).isEqualTo(PacketHeaders.icmp6(A, B, 0));
  }

  @Test
  void matchesByType() {
    assertThat(NS.matches(PacketHeaders.icmp6(A, B, 135), 1, 0)).isTrue();
    assertThat(NS.matches(PacketHeaders.icmp6(A, B, 136), 1, 0)).isFalse();
    assertThat(NS.matches(PacketHeaders.icmp6(A, B, 128), 1, 0)).isFalse();
    assertThat(NS.matches(PacketHeaders.udp6(A, B, 135, 135), 1, 0)).isFalse();
  }

  @Test
  void coversAndOverlaps() {
    Match icmp6 = Match.builder().icmp6().build();
    Match na = Match.builder().icmp6().icmpv6Type(136).build();
    assertThat(icmp6.covers(NS)).isTrue();
    assertThat(NS.covers(icmp6)).isFalse();
    assertThat(NS.overlaps(icmp6)).isTrue();
    assertThat(NS.overlaps(na)).isFalse();
  }

  @Test
  void ovsSyntaxRoundTrips() {
    FlowEntry e =
        FlowEntry.builder()
            .priority(50000)
            .match(NS)
            .apply(new Action.Output(OfPort.CONTROLLER))
            .build();
    assertThat(e.toString())
        .isEqualTo("table=0,priority=50000,icmp6,icmpv6_type=135,actions=CONTROLLER:65535");
    assertThat(OvsFlowParser.parseFlow(e.toString())).isEqualTo(e);
    // ovs-ofctl dump-flows prints the field as icmp_type.
    assertThat(
            OvsFlowParser.parseFlow("priority=50000,icmp6,icmp_type=135 actions=CONTROLLER:65535"))
        .isEqualTo(e);
    assertThatThrownBy(() -> OvsFlowParser.parseFlow("icmp,icmp_type=8 actions=drop"))
        .hasMessageContaining("ICMPv6 only");
    assertThat(OvsFlowSyntax.packet(PacketHeaders.icmp6(A, B, 136)))
        .isEqualTo("ipv6,nw_proto=58,ipv6_src=2001:db8::1,ipv6_dst=ff02::1:ff00:2,icmpv6_type=136");
  }
}
