package org.netpubsub.network.nbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.network.nbi.TestFrames.ICMPV6;
import static org.netpubsub.network.nbi.TestFrames.TCP;
import static org.netpubsub.network.nbi.TestFrames.UDP;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;

/** Header parsing of packet-in bytes: what each frame yields, and what truncation takes away. */
class FrameHeadersTest {
  static final Ipv6Address A = Ipv6Address.parse("2001:db8::1");
  static final Ipv6Address B = Ipv6Address.parse("ff0e::7073");
  static final long V4_A = 0x0a000001L;
  static final long V4_B = 0x0a000102L;

  @Test
  void parsesUdpOverIpv6() {
    byte[] f =
        TestFrames.ethernet(
            0x86dd, 0, TestFrames.ipv6(A, B, UDP, TestFrames.udp(5000, 7073, new byte[4])));
    FrameHeaders h = FrameHeaders.parse(f);
    assertThat(h.ethType()).hasValue(0x86dd);
    assertThat(h.ipv6Src()).contains(A);
    assertThat(h.ipv6Dst()).contains(B);
    assertThat(h.ipProto()).hasValue(UDP);
    assertThat(h.udpSrc()).hasValue(5000);
    assertThat(h.udpDst()).hasValue(7073);
    assertThat(h.tcpDst()).isEmpty();
    assertThat(h.ipv4Src()).isEmpty();
    assertThat(h.icmpv6Type()).isEmpty();
  }

  @Test
  void parsesTcpOverIpv4BehindTwoVlanTags() {
    byte[] f =
        TestFrames.ethernet(
            0x0800, 2, TestFrames.ipv4(V4_A, V4_B, TCP, 0, TestFrames.tcp(80, 443)));
    FrameHeaders h = FrameHeaders.parse(f);
    assertThat(h.ethType()).hasValue(0x0800);
    assertThat(h.ipv4Src()).hasValue(V4_A);
    assertThat(h.ipv4Dst()).hasValue(V4_B);
    assertThat(h.ipProto()).hasValue(TCP);
    assertThat(h.tcpSrc()).hasValue(80);
    assertThat(h.tcpDst()).hasValue(443);
    assertThat(h.udpSrc()).isEmpty();
    assertThat(h.ipv6Src()).isEmpty();
  }

  @Test
  void ipProtoIsTheProtocolAfterIpv6ExtensionHeaders() {
    byte[] l4 =
        TestFrames.optionsHeader(60, TestFrames.optionsHeader(ICMPV6, TestFrames.icmpv6(135)));
    FrameHeaders h =
        FrameHeaders.parse(TestFrames.ethernet(0x86dd, 0, TestFrames.ipv6(A, B, 0, l4)));
    assertThat(h.ipProto()).hasValue(ICMPV6);
    assertThat(h.icmpv6Type()).hasValue(135);
  }

  @Test
  void laterFragmentsHaveNoPorts() {
    byte[] first = TestFrames.fragmentHeader(UDP, 0, TestFrames.udp(1, 2, new byte[0]));
    byte[] later = TestFrames.fragmentHeader(UDP, 3, TestFrames.udp(1, 2, new byte[0]));
    FrameHeaders h1 =
        FrameHeaders.parse(TestFrames.ethernet(0x86dd, 0, TestFrames.ipv6(A, B, 44, first)));
    FrameHeaders h2 =
        FrameHeaders.parse(TestFrames.ethernet(0x86dd, 0, TestFrames.ipv6(A, B, 44, later)));
    assertThat(h1.udpDst()).hasValue(2);
    assertThat(h2.ipProto()).hasValue(UDP);
    assertThat(h2.udpDst()).isEmpty();
    FrameHeaders v4 =
        FrameHeaders.parse(
            TestFrames.ethernet(
                0x0800, 0, TestFrames.ipv4(V4_A, V4_B, UDP, 5, TestFrames.udp(1, 2, new byte[0]))));
    assertThat(v4.ipProto()).hasValue(UDP);
    assertThat(v4.udpDst()).isEmpty();
  }

  @Test
  void truncationKeepsTheFieldsWhoseBytesArrived() {
    byte[] f =
        TestFrames.ethernet(
            0x86dd, 0, TestFrames.ipv6(A, B, UDP, TestFrames.udp(5000, 7073, new byte[0])));
    // 14 Ethernet + 40 IPv6 + 2 bytes of UDP: addresses yes, ports no
    FrameHeaders h = FrameHeaders.parse(TestFrames.truncate(f, 56));
    assertThat(h.ipv6Dst()).contains(B);
    assertThat(h.ipProto()).hasValue(UDP);
    assertThat(h.udpSrc()).isEmpty();
    // one byte short of the IPv6 header: only the EtherType
    FrameHeaders h2 = FrameHeaders.parse(TestFrames.truncate(f, 53));
    assertThat(h2.ethType()).hasValue(0x86dd);
    assertThat(h2.ipv6Src()).isEmpty();
    assertThat(h2.ipProto()).isEmpty();
    // inside the VLAN tag: not even the EtherType
    byte[] tagged = TestFrames.ethernet(0x86dd, 1, new byte[0]);
    assertThat(FrameHeaders.parse(TestFrames.truncate(tagged, 15)).ethType()).isEmpty();
    assertThat(FrameHeaders.parse(TestFrames.truncate(tagged, 13)).ethType()).isEmpty();
  }

  @Test
  void malformedHeadersYieldNoFields() {
    byte[] wrongVersion =
        TestFrames.ethernet(
            0x86dd, 0, TestFrames.ipv6(A, B, UDP, TestFrames.udp(1, 2, new byte[0])));
    wrongVersion[14] = 0x40;
    assertThat(FrameHeaders.parse(wrongVersion).ethType()).hasValue(0x86dd);
    assertThat(FrameHeaders.parse(wrongVersion).ipv6Src()).isEmpty();
    byte[] shortIhl =
        TestFrames.ethernet(
            0x0800, 0, TestFrames.ipv4(V4_A, V4_B, UDP, 0, TestFrames.udp(1, 2, new byte[0])));
    shortIhl[14] = 0x44; // header length 16 < 20
    assertThat(FrameHeaders.parse(shortIhl).ipv4Src()).isEmpty();
    assertThat(FrameHeaders.parse(null).ethType()).isEmpty();
    assertThat(FrameHeaders.parse(new byte[0]).ethType()).isEmpty();
  }

  @Test
  void anEndlessChainOfExtensionHeadersHasNoProtocol() {
    byte[] l4 = TestFrames.udp(1, 2, new byte[0]);
    for (int i = 0; i < 12; i++) {
      l4 = TestFrames.optionsHeader(i == 0 ? UDP : 60, l4);
    }
    FrameHeaders h =
        FrameHeaders.parse(TestFrames.ethernet(0x86dd, 0, TestFrames.ipv6(A, B, 60, l4)));
    assertThat(h.ipv6Src()).contains(A);
    assertThat(h.ipProto()).isEmpty();
    assertThat(h.udpDst()).isEmpty();
  }

  @Test
  void optionalsAreEmptyTypesNotZeros() {
    FrameHeaders h = FrameHeaders.parse(TestFrames.ethernet(0x88cc, 0, new byte[40]));
    assertThat(h.ethType()).isEqualTo(OptionalInt.of(0x88cc));
    assertThat(h.ipProto()).isEqualTo(OptionalInt.empty());
    assertThat(h.ipv4Dst()).isEqualTo(OptionalLong.empty());
    assertThat(h.ipv6Dst()).isEqualTo(Optional.empty());
  }
}
