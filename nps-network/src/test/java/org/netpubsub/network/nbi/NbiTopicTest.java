package org.netpubsub.network.nbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.network.nbi.TestFrames.UDP;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.MaskedIpv6;

/** Topic syntax (what parses, canonical form, errors with their column) and matching. */
class NbiTopicTest {
  static final Ipv6Address H1 = Ipv6Address.parse("2001:db8::1");
  static final Ipv6Address GROUP = Ipv6Address.parse("ff0e::7073");

  static PacketInView udp6(long dpid, long inPort, int dstPort) {
    byte[] f =
        TestFrames.ethernet(
            0x86dd, 0, TestFrames.ipv6(H1, GROUP, UDP, TestFrames.udp(5000, dstPort, new byte[2])));
    return new PacketInView(dpid, inPort, 7, f);
  }

  @Test
  void parsesMatchFieldsIntoCanonicalOrder() {
    NbiTopic t = NbiTopic.parse(" udp_dst=7073, ip_proto=17 ,eth_type=34525");
    assertThat(t.toString()).isEqualTo("eth_type=0x86dd,ip_proto=17,udp_dst=7073");
    assertThat(t)
        .isEqualTo(
            NbiTopic.of(
                FieldConstraint.exact(HeaderField.UDP_DST, 7073),
                FieldConstraint.exact(HeaderField.ETH_TYPE, 0x86dd),
                FieldConstraint.exact(HeaderField.IP_PROTO, 17)));
    assertThat(NbiTopic.parse(t.toString())).isEqualTo(t);
  }

  @Test
  void parsesEveryFieldAndWritesItBack() {
    String text =
        "dpid=0x1f,in_port=LOCAL,ipv6_src=2001:db8::/32,ipv6_dst=ff0e::/ffff::ffff:0:0:0,udp_src=1";
    assertThat(NbiTopic.parse(text).toString()).isEqualTo(text);
    String v4 = "eth_type=0x0800,ipv4_src=10.0.0.1,ipv4_dst=10.1.0.0/16,tcp_src=80,tcp_dst=443";
    assertThat(NbiTopic.parse(v4).toString()).isEqualTo(v4);
    assertThat(NbiTopic.parse("ipv4_dst=10.0.0.0/255.0.255.0").toString())
        .isEqualTo("ipv4_dst=10.0.0.0/255.0.255.0");
    assertThat(NbiTopic.parse("icmpv6_type=135").toString()).isEqualTo("icmpv6_type=135");
    assertThat(NbiTopic.parse("in_port=3").toString()).isEqualTo("in_port=3");
  }

  @Test
  void parsesBytePatterns() {
    NbiTopic t = NbiTopic.parse("bytes@12/2&ffff=86dd");
    assertThat(t.toString()).isEqualTo("bytes@12/2=86dd"); // an all-ones mask is the default
    assertThat(t.constraints().get(0).field()).isEqualTo(new ByteWindow(12, 2));
    // value bits outside the mask are ignored, as ovs-ofctl ignores them
    assertThat(NbiTopic.parse("bytes@20/1&F0=0x6A").toString()).isEqualTo("bytes@20/1&f0=60");
    String sixteen = "bytes@22/16=" + "20010db8000000000000000000000001";
    assertThat(NbiTopic.parse(sixteen).toString()).isEqualTo(sixteen);
    assertThat(NbiTopic.parse("eth_type=0x86dd,bytes@54/2=1ba1").constraints()).hasSize(2);
  }

  @Test
  void starAndZeroMasksAreEveryPacket() {
    assertThat(NbiTopic.parse("*")).isEqualTo(NbiTopic.ANY);
    assertThat(NbiTopic.parse(" * ")).isEqualTo(NbiTopic.ANY);
    assertThat(NbiTopic.parse("ipv6_dst=::/0")).isEqualTo(NbiTopic.ANY);
    assertThat(NbiTopic.parse("bytes@0/1&00=00")).isEqualTo(NbiTopic.ANY);
    assertThat(NbiTopic.ANY.toString()).isEqualTo("*");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "''                               | 1  | empty topic",
        "'   '                            | 1  | empty topic",
        "eth_type=0x86dd,,udp_dst=1       | 17 | empty clause",
        "eth_type=0x86dd,                 | 17 | empty clause",
        "eth_type                         | 1  | expected field=value",
        "eth_typo=1                       | 1  | unknown field 'eth_typo'",
        "=1                               | 1  | unknown field ''",
        "eth_type=                        | 10 | missing value of eth_type",
        "eth_type=0x86zz                  | 10 | not a number: '0x86zz'",
        "eth_type=65536                   | 10 | does not fit in 16 bits",
        "udp_dst=-1                       | 9  | not a number",
        "ip_proto=17,ip_proto=17          | 13 | ip_proto given twice (first at column 1)",
        "ipv6_dst=ff0e::1::2              | 10 | not an IPv6 address",
        "ipv6_dst=::/129                  | 10 | IPv6 prefix length must be in [0, 128]",
        "ipv6_dst=::/12345678901          | 10 | IPv6 prefix length must be in [0, 128]",
        "ipv4_dst=10.0.0.256              | 10 | not an IPv4 address",
        "ipv4_dst=10.0.0.0/33             | 10 | prefix length must be in [0, 32]",
        "in_port=eth0                     | 9  | not a port",
        "eth_type=0x0800,ipv6_dst=::1     | 17 | no packet has both eth_type=0x0800 and ipv6_dst=::1",
        "ipv4_src=1.2.3.4,ipv6_dst=::1    | 18 | no packet has both",
        "tcp_dst=80,udp_dst=53            | 12 | no packet has both",
        "ip_proto=6,  udp_dst=53          | 14 | no packet has both ip_proto=6 and udp_dst=53",
        "eth_type=0x88cc,ip_proto=17      | 17 | no packet has both",
        "icmpv6_type=135,ip_proto=17      | 17 | no packet has both",
        "*,eth_type=1                     | 1  | stands alone",
        "bytes@12                         | 7  | expected bytes@OFFSET/LENGTH[&MASK]=VALUE",
        "bytes@x/2=86dd                   | 7  | offset must be a decimal number: 'x'",
        "bytes@12/0=                      | 10 | length must be at least 1",
        "bytes@12/17=00                   | 10 | length must be at most 16",
        "bytes@70000/1=00                 | 7  | offset must be at most 65535",
        "bytes@12/2=86d                   | 12 | value must have 4 hex digits (2 bytes): '86d'",
        "bytes@12/2&ff=86dd               | 12 | mask must have 4 hex digits",
        "bytes@12/2=86dg                  | 15 | value has a non-hex digit 'g'",
        "eth_type=0x86dd, bytes@12/2=0x86gd | 33 | value has a non-hex digit 'g'",
      })
  void rejectsMalformedTextNamingTheColumn(String text, int column, String reason) {
    assertThatThrownBy(() -> NbiTopic.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("topic '" + text + "', column " + column + ": ")
        .hasMessageContaining(reason);
  }

  @Test
  void rejectsNullAndContradictionsBuiltInCode() {
    assertThatThrownBy(() -> NbiTopic.parse(null)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                NbiTopic.of(
                    FieldConstraint.exact(HeaderField.ETH_TYPE, 0x0800),
                    FieldConstraint.ipv6(HeaderField.IPV6_DST, MaskedIpv6.exact(H1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no packet has both");
    assertThatThrownBy(
            () -> new FieldConstraint(HeaderField.ETH_TYPE, FieldValue.of(1), FieldValue.of(0xff)))
        .hasMessageContaining("takes no mask");
    assertThatThrownBy(() -> FieldConstraint.exact(HeaderField.IP_PROTO, 256))
        .hasMessageContaining("8 bits");
  }

  @Test
  void matchesFieldsAndBytes() {
    PacketInView p = udp6(0x1f, 3, 7073);
    assertThat(NbiTopic.parse("eth_type=0x86dd,ip_proto=17,udp_dst=7073").matches(p)).isTrue();
    assertThat(NbiTopic.parse("udp_dst=7074").matches(p)).isFalse();
    assertThat(NbiTopic.parse("tcp_dst=7073").matches(p)).isFalse();
    assertThat(NbiTopic.parse("dpid=0x1f,in_port=3").matches(p)).isTrue();
    assertThat(NbiTopic.parse("dpid=0x1f,in_port=4").matches(p)).isFalse();
    assertThat(NbiTopic.parse("ipv6_dst=ff0e::/16").matches(p)).isTrue();
    assertThat(NbiTopic.parse("ipv6_dst=ff0f::/16").matches(p)).isFalse();
    assertThat(NbiTopic.parse("ipv4_dst=0.0.0.0/1").matches(p)).isFalse(); // not IPv4 at all
    assertThat(NbiTopic.parse("bytes@12/2=86dd").matches(p)).isTrue();
    assertThat(NbiTopic.parse("bytes@56/2=1ba1").matches(p)).isTrue(); // UDP dst 7073
    assertThat(NbiTopic.parse("bytes@56/2&ff00=1b00").matches(p)).isTrue();
    assertThat(NbiTopic.parse("bytes@56/2&00ff=00a2").matches(p)).isFalse();
    assertThat(NbiTopic.parse("bytes@63/2=0000").matches(p)).isFalse(); // past the end
    assertThat(NbiTopic.ANY.matches(new PacketInView(1, 1, 1, new byte[0]))).isTrue();
  }

  @Test
  void byteTopicsDoNotParseHeaders() {
    PacketInView p = udp6(1, 1, 7073);
    assertThat(NbiTopic.parse("dpid=0x1,bytes@12/2=86dd").matches(p)).isTrue();
    assertThat(p.isParsed()).isFalse();
    assertThat(NbiTopic.parse("udp_dst=7073").matches(p)).isTrue();
    assertThat(p.isParsed()).isTrue();
  }
}
