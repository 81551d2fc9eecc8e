package org.netpubsub.network.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Neighbour discovery frames: golden bytes (tcpdump -vv read them as valid NS/NA with "icmp6 sum
 * ok"), and the RFC 4861 §7.1 checks on received frames.
 */
class NdCodecTest {
  static final MacAddress M1 = MacAddress.parse("02:00:00:00:00:01");
  static final MacAddress M2 = MacAddress.parse("02:00:00:00:00:02");
  static final Ipv6Address H1 = Ipv6Address.parse("2001:db8::1");
  static final Ipv6Address H2 = Ipv6Address.parse("2001:db8::2");

  /** h1 asks for h2, checked by tcpdump. */
  static final String NS_HEX =
      "3333ff00000202000000000186dd6000000000203aff20010db8000000000000000000000001ff020000000000"
          + "0000000001ff00000287001c270000000020010db80000000000000000000000020101020000000001";

  /** h2 answers h1, checked by tcpdump. */
  static final String NA_HEX =
      "02000000000102000000000286dd6000000000203aff20010db800000000000000000000000220010db8000000"
          + "00000000000000000188008a716000000020010db80000000000000000000000020201020000000002";

  private static byte[] hex(String s) {
    return HexFormat.of().parseHex(s);
  }

  private static String reason(byte[] frame) {
    DecodeResult<NdMessage> r = NdCodec.decode(frame);
    assertThat(r).isInstanceOf(DecodeResult.Malformed.class);
    return ((DecodeResult.Malformed<NdMessage>) r).reason();
  }

  @Test
  void encodesGoldenFrames() {
    NdMessage ns = NdMessage.solicitation(M1, H1, H2);
    assertThat(HexFormat.of().formatHex(NdCodec.encode(ns))).isEqualTo(NS_HEX);
    NdMessage na =
        Ipv6NeighborDiscovery.advertisement(new Host(H2, M2, SwitchPort.of(1, 1)), M1, H1);
    assertThat(HexFormat.of().formatHex(NdCodec.encode(na))).isEqualTo(NA_HEX);
    assertThat(NdCodec.decode(hex(NS_HEX))).isEqualTo(DecodeResult.ok(ns));
    assertThat(NdCodec.decode(hex(NA_HEX))).isEqualTo(DecodeResult.ok(na));
    assertThat(ns.headers()).isEqualTo(PacketHeaders.icmp6(H1, ns.dst(), 135));
    assertThat(ns.dst()).isEqualTo(Ipv6Address.parse("ff02::1:ff00:2"));
  }

  @Test
  void rejectsWhatRfc4861SaysToDrop() {
    byte[] b = hex(NS_HEX);
    b[21] = 64; // hop limit
    assertThat(reason(b)).contains("hop limit");
    b = hex(NS_HEX);
    b[55] = 1; // code
    assertThat(reason(b)).contains("code");
    b = hex(NS_HEX);
    b[60] ^= 1; // inside the target: the checksum no longer fits
    assertThat(reason(b)).contains("checksum");
    b = hex(NS_HEX);
    b[54] = (byte) 128; // echo request
    assertThat(reason(b)).contains("not neighbour discovery");
    b = hex(NS_HEX);
    b[12] = 0x08;
    b[13] = 0;
    assertThat(reason(b)).contains("EtherType");
    assertThat(reason(java.util.Arrays.copyOf(hex(NS_HEX), 70))).contains("past the frame");
    assertThat(reason(NdCodec.encode(NdMessage.solicitation(M1, H1, Ipv6Address.parse("ff02::1")))))
        .contains("multicast");
    NdMessage dadWithOption =
        new NdMessage(
            NdMessage.Kind.SOLICITATION,
            M1,
            NdMessage.multicastMac(NdMessage.solicitedNode(H1)),
            Ipv6Address.ZERO,
            NdMessage.solicitedNode(H1),
            H1,
            java.util.Optional.of(M1),
            false,
            false,
            false);
    assertThat(reason(NdCodec.encode(dadWithOption))).contains("DAD");
    NdMessage solicitedToGroup =
        new NdMessage(
            NdMessage.Kind.ADVERTISEMENT,
            M1,
            M2,
            H1,
            NdMessage.ALL_NODES,
            H1,
            java.util.Optional.empty(),
            false,
            true,
            false);
    assertThat(reason(NdCodec.encode(solicitedToGroup))).contains("solicited advertisement");
    assertThat(reason(null)).contains("shorter");
  }

  @Test
  void zeroLengthOptionIsMalformed() {
    byte[] b = hex(NS_HEX);
    b[79] = 0; // option length
    assertThat(reason(NdCodec.withChecksum(b))).isEqualTo("bad option length");
    b = hex(NS_HEX);
    b[79] = 2; // an option running past the message
    assertThat(reason(NdCodec.withChecksum(b))).isEqualTo("bad option length");
    b = hex(NS_HEX);
    b[78] = 14; // an unknown option is skipped, and the source option is then missing
    NdMessage m = NdCodec.decode(NdCodec.withChecksum(b)).toOptional().orElseThrow();
    assertThat(m.linkLayer()).isEmpty();
  }
}
