package org.netpubsub.network.nbi;

import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * The L2–L4 header fields of a packet-in's bytes, as far as the bytes go: Ethernet (behind any
 * 802.1Q/802.1ad tags, as OpenFlow's eth_type), IPv4 or IPv6 (after IPv6 extension headers, as
 * OpenFlow's ip_proto), TCP/UDP ports and the ICMPv6 type. Switches truncate packet-ins
 * (miss_send_len), so a field is present whenever its own bytes are, whatever the length fields
 * claim; a field whose bytes are missing or malformed is absent and matches no constraint. {@link
 * #parse} never throws.
 */
public final class FrameHeaders {
  private static final int ETH_HEADER = 14;
  private static final int IPV4_HEADER = 20;
  private static final int IPV6_HEADER = 40;

  /** More extension headers than this is an attack on the parser, not a packet to classify. */
  private static final int MAX_EXTENSION_HEADERS = 8;

  private static final int ABSENT = -1;

  private int ethType = ABSENT;
  private int ipProto = ABSENT;
  private long ipv4Src = ABSENT;
  private long ipv4Dst = ABSENT;
  private Ipv6Address ipv6Src;
  private Ipv6Address ipv6Dst;
  private int tcpSrc = ABSENT;
  private int tcpDst = ABSENT;
  private int udpSrc = ABSENT;
  private int udpDst = ABSENT;
  private int icmpv6Type = ABSENT;

  private FrameHeaders() {}

  /** Parses what the bytes hold; never throws (null or empty bytes have no fields). */
  public static FrameHeaders parse(byte[] b) {
    FrameHeaders h = new FrameHeaders();
    if (b != null) {
      h.parseEthernet(b);
    }
    return h;
  }

  private void parseEthernet(byte[] b) {
    if (b.length < ETH_HEADER) {
      return;
    }
    int at = 12;
    int type = u16(b, at);
    while (type == 0x8100 || type == 0x88a8 || type == 0x9100) { // VLAN tags: skip to inner type
      at += 4;
      if (at + 2 > b.length) {
        return;
      }
      type = u16(b, at);
    }
    ethType = type;
    int l3 = at + 2;
    if (type == PacketHeaders.ETH_TYPE_IPV4) {
      parseIpv4(b, l3);
    } else if (type == PacketHeaders.ETH_TYPE_IPV6) {
      parseIpv6(b, l3);
    }
  }

  private void parseIpv4(byte[] b, int at) {
    if (at + IPV4_HEADER > b.length || (b[at] & 0xf0) != 0x40) {
      return;
    }
    int headerLength = (b[at] & 0x0f) * 4;
    if (headerLength < IPV4_HEADER) {
      return;
    }
    ipProto = b[at + 9] & 0xff;
    ipv4Src = u32(b, at + 12);
    ipv4Dst = u32(b, at + 16);
    boolean laterFragment = (u16(b, at + 6) & 0x1fff) != 0; // only the first carries L4 ports
    if (!laterFragment) {
      parseL4(b, at + headerLength, false);
    }
  }

  private void parseIpv6(byte[] b, int at) {
    if (at + IPV6_HEADER > b.length || (b[at] & 0xf0) != 0x60) {
      return;
    }
    ipv6Src = new Ipv6Address(u64(b, at + 8), u64(b, at + 16));
    ipv6Dst = new Ipv6Address(u64(b, at + 24), u64(b, at + 32));
    int next = b[at + 6] & 0xff;
    int l4 = at + IPV6_HEADER;
    boolean laterFragment = false;
    for (int n = 0; ; n++) {
      if (n > MAX_EXTENSION_HEADERS) {
        return;
      }
      if (next == 0 || next == 43 || next == 60) { // hop-by-hop, routing, destination options
        if (l4 + 2 > b.length) {
          return;
        }
        next = b[l4] & 0xff;
        l4 += ((b[l4 + 1] & 0xff) + 1) * 8;
      } else if (next == 44) { // fragment
        if (l4 + 8 > b.length) {
          return;
        }
        laterFragment |= (u16(b, l4 + 2) >>> 3) != 0;
        next = b[l4] & 0xff;
        l4 += 8;
      } else if (next == 51) { // authentication header: length in 4-byte units, minus 2
        if (l4 + 2 > b.length) {
          return;
        }
        next = b[l4] & 0xff;
        l4 += ((b[l4 + 1] & 0xff) + 2) * 4;
      } else {
        break;
      }
    }
    ipProto = next;
    if (!laterFragment) {
      parseL4(b, l4, true);
    }
  }

  private void parseL4(byte[] b, int at, boolean ipv6) {
    if (ipProto == PacketHeaders.IP_PROTO_TCP && at + 4 <= b.length) {
      tcpSrc = u16(b, at);
      tcpDst = u16(b, at + 2);
    } else if (ipProto == PacketHeaders.IP_PROTO_UDP && at + 4 <= b.length) {
      udpSrc = u16(b, at);
      udpDst = u16(b, at + 2);
    } else if (ipv6 && ipProto == PacketHeaders.IP_PROTO_ICMPV6 && at + 1 <= b.length) {
      icmpv6Type = b[at] & 0xff;
    }
  }

  private static int u16(byte[] b, int at) {
    return (b[at] & 0xff) << 8 | (b[at + 1] & 0xff);
  }

  private static long u32(byte[] b, int at) {
    return (long) u16(b, at) << 16 | u16(b, at + 2);
  }

  private static long u64(byte[] b, int at) {
    return u32(b, at) << 32 | u32(b, at + 4);
  }

  private static OptionalInt optional(int v) {
    return v == ABSENT ? OptionalInt.empty() : OptionalInt.of(v);
  }

  private static OptionalLong optional(long v) {
    return v == ABSENT ? OptionalLong.empty() : OptionalLong.of(v);
  }

  public OptionalInt ethType() {
    return optional(ethType);
  }

  public OptionalInt ipProto() {
    return optional(ipProto);
  }

  /** The IPv4 source as an unsigned 32-bit number. */
  public OptionalLong ipv4Src() {
    return optional(ipv4Src);
  }

  public OptionalLong ipv4Dst() {
    return optional(ipv4Dst);
  }

  public Optional<Ipv6Address> ipv6Src() {
    return Optional.ofNullable(ipv6Src);
  }

  public Optional<Ipv6Address> ipv6Dst() {
    return Optional.ofNullable(ipv6Dst);
  }

  public OptionalInt tcpSrc() {
    return optional(tcpSrc);
  }

  public OptionalInt tcpDst() {
    return optional(tcpDst);
  }

  public OptionalInt udpSrc() {
    return optional(udpSrc);
  }

  public OptionalInt udpDst() {
    return optional(udpDst);
  }

  public OptionalInt icmpv6Type() {
    return optional(icmpv6Type);
  }

  @Override
  public String toString() {
    return "FrameHeaders{ethType="
        + ethType()
        + ", ipProto="
        + ipProto()
        + ", ipv4="
        + ipv4Src()
        + "->"
        + ipv4Dst()
        + ", ipv6="
        + ipv6Src()
        + "->"
        + ipv6Dst()
        + ", tcp="
        + tcpSrc()
        + "->"
        + tcpDst()
        + ", udp="
        + udpSrc()
        + "->"
        + udpDst()
        + ", icmpv6Type="
        + icmpv6Type()
        + "}";
  }
}
