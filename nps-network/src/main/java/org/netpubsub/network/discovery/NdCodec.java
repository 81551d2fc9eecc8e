package org.netpubsub.network.discovery;

import java.util.Optional;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.topology.MacAddress;

/**
 * Ethernet + IPv6 + ICMPv6 neighbour solicitation/advertisement frames to and from {@link
 * NdMessage}. Decoding validates as RFC 4861 §7.1 asks (hop limit 255, code 0, checksum, length,
 * options, no multicast target, DAD rules) and never throws, whatever the bytes.
 */
public final class NdCodec {
  private static final int ETH = 14;
  private static final int IP = 40;
  private static final int ICMP = ETH + IP;
  private static final int ND_BODY = 24;
  private static final int OPT_SOURCE_LL = 1;
  private static final int OPT_TARGET_LL = 2;

  private NdCodec() {}

  /** The frame's bytes, checksum computed. */
  public static byte[] encode(NdMessage m) {
    int icmpLength = ND_BODY + (m.linkLayer().isPresent() ? 8 : 0);
    byte[] b = new byte[ICMP + icmpLength];
    m.ethDst().write(b, 0);
    m.ethSrc().write(b, 6);
    put(b, 12, PacketHeaders.ETH_TYPE_IPV6, 2);
    b[ETH] = 0x60;
    put(b, ETH + 4, icmpLength, 2);
    b[ETH + 6] = (byte) PacketHeaders.IP_PROTO_ICMPV6;
    b[ETH + 7] = (byte) 255;
    putAddress(b, ETH + 8, m.src());
    putAddress(b, ETH + 24, m.dst());
    b[ICMP] = (byte) m.kind().icmpType();
    if (m.kind() == NdMessage.Kind.ADVERTISEMENT) {
      b[ICMP + 4] =
          (byte) ((m.router() ? 0x80 : 0) | (m.solicited() ? 0x40 : 0) | (m.override() ? 0x20 : 0));
    }
    putAddress(b, ICMP + 8, m.target());
    if (m.linkLayer().isPresent()) {
      int opt = ICMP + ND_BODY;
      b[opt] = (byte) (m.kind() == NdMessage.Kind.SOLICITATION ? OPT_SOURCE_LL : OPT_TARGET_LL);
      b[opt + 1] = 1;
      m.linkLayer().get().write(b, opt + 2);
    }
    return withChecksum(b);
  }

  /** Writes the ICMPv6 checksum of a frame whose headers are in place (tests craft frames too). */
  static byte[] withChecksum(byte[] b) {
    int icmpLength = (int) get(b, ETH + 4, 2);
    put(b, ICMP + 2, 0, 2);
    put(b, ICMP + 2, checksum(b, icmpLength), 2);
    return b;
  }

  /** Decodes a frame as punted to the controller. */
  public static DecodeResult<NdMessage> decode(byte[] b) {
    if (b == null || b.length < ICMP) {
      return DecodeResult.malformed("shorter than Ethernet and IPv6 headers");
    }
    if (get(b, 12, 2) != PacketHeaders.ETH_TYPE_IPV6) {
      return DecodeResult.malformed("EtherType is not IPv6");
    }
    if ((b[ETH] & 0xf0) != 0x60) {
      return DecodeResult.malformed("IP version is not 6");
    }
    int icmpLength = (int) get(b, ETH + 4, 2);
    if (ICMP + icmpLength > b.length) {
      return DecodeResult.malformed("IPv6 payload runs past the frame");
    }
    if ((b[ETH + 6] & 0xff) != PacketHeaders.IP_PROTO_ICMPV6) {
      return DecodeResult.malformed("next header is not ICMPv6");
    }
    if ((b[ETH + 7] & 0xff) != 255) {
      return DecodeResult.malformed("hop limit is not 255 (RFC 4861: the sender is off-link)");
    }
    if (icmpLength < ND_BODY) {
      return DecodeResult.malformed("ICMPv6 message shorter than 24 bytes");
    }
    int type = b[ICMP] & 0xff;
    NdMessage.Kind kind =
        type == 135
            ? NdMessage.Kind.SOLICITATION
            : type == 136 ? NdMessage.Kind.ADVERTISEMENT : null;
    if (kind == null) {
      return DecodeResult.malformed("ICMPv6 type " + type + " is not neighbour discovery");
    }
    if (b[ICMP + 1] != 0) {
      return DecodeResult.malformed("ICMPv6 code is not 0");
    }
    if (checksum(b, icmpLength) != 0) {
      return DecodeResult.malformed("bad ICMPv6 checksum");
    }
    MacAddress ethSrc = MacAddress.read(b, 6);
    if (ethSrc.isMulticast()) {
      return DecodeResult.malformed("multicast Ethernet source");
    }
    Ipv6Address src = address(b, ETH + 8);
    Ipv6Address dst = address(b, ETH + 24);
    Ipv6Address target = address(b, ICMP + 8);
    if (NdMessage.isMulticast(target) || NdMessage.isMulticast(src)) {
      return DecodeResult.malformed("multicast target or source address");
    }
    int flags = kind == NdMessage.Kind.ADVERTISEMENT ? b[ICMP + 4] & 0xff : 0;
    Optional<MacAddress> ll = Optional.empty();
    int wanted = kind == NdMessage.Kind.SOLICITATION ? OPT_SOURCE_LL : OPT_TARGET_LL;
    int end = ICMP + icmpLength;
    for (int at = ICMP + ND_BODY; at < end; ) {
      if (at + 2 > end || b[at + 1] == 0 || at + 8 * (b[at + 1] & 0xff) > end) {
        return DecodeResult.malformed("bad option length");
      }
      if ((b[at] & 0xff) == wanted && b[at + 1] == 1) {
        ll = Optional.of(MacAddress.read(b, at + 2));
      }
      at += 8 * (b[at + 1] & 0xff);
    }
    NdMessage m =
        new NdMessage(
            kind,
            ethSrc,
            MacAddress.read(b, 0),
            src,
            dst,
            target,
            ll,
            (flags & 0x80) != 0,
            (flags & 0x40) != 0,
            (flags & 0x20) != 0);
    if (m.isDad() && (ll.isPresent() || !dst.equals(NdMessage.solicitedNode(target)))) {
      return DecodeResult.malformed("DAD solicitation with an option or to a wrong group");
    }
    if (kind == NdMessage.Kind.ADVERTISEMENT && m.solicited() && NdMessage.isMulticast(dst)) {
      return DecodeResult.malformed("solicited advertisement to a multicast group");
    }
    return DecodeResult.ok(m);
  }

  /**
   * The ones'-complement sum over the IPv6 pseudo-header and the ICMPv6 message, complemented: the
   * checksum to write when the field is zero, 0 when a received checksum is right.
   */
  private static int checksum(byte[] b, int icmpLength) {
    long sum = 0;
    for (int i = ETH + 8; i < ICMP; i += 2) { // source and destination addresses
      sum += get(b, i, 2);
    }
    sum += icmpLength; // upper-layer packet length (32 bits; the high half is zero)
    sum += PacketHeaders.IP_PROTO_ICMPV6;
    for (int i = 0; i < icmpLength; i += 2) {
      int hi = b[ICMP + i] & 0xff;
      int lo = i + 1 < icmpLength ? b[ICMP + i + 1] & 0xff : 0;
      sum += hi << 8 | lo;
    }
    while ((sum >>> 16) != 0) {
      sum = (sum & 0xffff) + (sum >>> 16);
    }
    return (int) (~sum & 0xffff);
  }

  private static Ipv6Address address(byte[] b, int at) {
    return new Ipv6Address(get(b, at, 8), get(b, at + 8, 8));
  }

  private static void putAddress(byte[] b, int at, Ipv6Address a) {
    put(b, at, a.high(), 8);
    put(b, at + 8, a.low(), 8);
  }

  private static void put(byte[] b, int at, long v, int bytes) {
    for (int i = 0; i < bytes; i++) {
      b[at + i] = (byte) (v >>> (8 * (bytes - 1 - i)));
    }
  }

  private static long get(byte[] b, int at, int bytes) {
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v = v << 8 | (b[at + i] & 0xff);
    }
    return v;
  }
}
