package org.netpubsub.network.nbi;

import java.util.Locale;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * The OpenFlow match fields a topic can name, spelled as ovs-ofctl spells them. Addresses take a
 * mask ({@code /len} or {@code /mask}); the other fields are exact. {@link #requiredEthType} and
 * {@link #requiredIpProto} are OpenFlow's prerequisites: a packet without them has no such field.
 */
public enum HeaderField implements TopicField {
  DPID(64, false, -1, -1, 12),
  IN_PORT(32, false, -1, -1, 10),
  ETH_TYPE(16, false, -1, -1, 2),
  IP_PROTO(8, false, -1, -1, 3),
  IPV4_SRC(32, true, PacketHeaders.ETH_TYPE_IPV4, -1, -1),
  IPV4_DST(32, true, PacketHeaders.ETH_TYPE_IPV4, -1, -1),
  IPV6_SRC(128, true, PacketHeaders.ETH_TYPE_IPV6, -1, -1),
  IPV6_DST(128, true, PacketHeaders.ETH_TYPE_IPV6, -1, -1),
  TCP_SRC(16, false, -1, PacketHeaders.IP_PROTO_TCP, 14),
  TCP_DST(16, false, -1, PacketHeaders.IP_PROTO_TCP, 14),
  UDP_SRC(16, false, -1, PacketHeaders.IP_PROTO_UDP, 14),
  UDP_DST(16, false, -1, PacketHeaders.IP_PROTO_UDP, 14),
  ICMPV6_TYPE(8, false, PacketHeaders.ETH_TYPE_IPV6, PacketHeaders.IP_PROTO_ICMPV6, 4);

  private final int bits;
  private final boolean maskable;
  private final int requiredEthType;
  private final int requiredIpProto;

  /** Bits of typical spread of an exact value; -1 for addresses (their mask decides). */
  private final int selectivity;

  HeaderField(
      int bits, boolean maskable, int requiredEthType, int requiredIpProto, int selectivity) {
    this.bits = bits;
    this.maskable = maskable;
    this.requiredEthType = requiredEthType;
    this.requiredIpProto = requiredIpProto;
    this.selectivity = selectivity;
  }

  /** The name in topic syntax: {@code eth_type}, {@code ipv6_dst}, ... */
  public String keyword() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The field of a keyword, or null. */
  public static HeaderField ofKeyword(String keyword) {
    for (HeaderField f : values()) {
      if (f.keyword().equals(keyword)) {
        return f;
      }
    }
    return null;
  }

  @Override
  public int bits() {
    return bits;
  }

  @Override
  public boolean maskable() {
    return maskable;
  }

  /** The EtherType a packet needs to have this field, or -1 if any will do. */
  public int requiredEthType() {
    return requiredEthType;
  }

  /** The IP protocol a packet needs to have this field, or -1 if none is needed. */
  public int requiredIpProto() {
    return requiredIpProto;
  }

  /** True if only IPv4 and IPv6 packets have this field. */
  public boolean needsIp() {
    return this == IP_PROTO || requiredIpProto >= 0 || requiredEthType >= 0;
  }

  @Override
  public int selectivity(FieldValue mask) {
    return selectivity >= 0 ? selectivity : mask.bitCount();
  }

  @Override
  public FieldValue read(PacketInView p) {
    return switch (this) {
      case DPID -> FieldValue.of(p.dpid());
      case IN_PORT -> FieldValue.of(p.inPort());
      case ETH_TYPE -> value(p.headers().ethType());
      case IP_PROTO -> value(p.headers().ipProto());
      case IPV4_SRC -> value(p.headers().ipv4Src());
      case IPV4_DST -> value(p.headers().ipv4Dst());
      case IPV6_SRC -> p.headers().ipv6Src().map(FieldValue::of).orElse(null);
      case IPV6_DST -> p.headers().ipv6Dst().map(FieldValue::of).orElse(null);
      case TCP_SRC -> value(p.headers().tcpSrc());
      case TCP_DST -> value(p.headers().tcpDst());
      case UDP_SRC -> value(p.headers().udpSrc());
      case UDP_DST -> value(p.headers().udpDst());
      case ICMPV6_TYPE -> value(p.headers().icmpv6Type());
    };
  }

  private static FieldValue value(OptionalInt v) {
    return v.isPresent() ? FieldValue.of(v.getAsInt()) : null;
  }

  private static FieldValue value(OptionalLong v) {
    return v.isPresent() ? FieldValue.of(v.getAsLong()) : null;
  }

  @Override
  public String format(FieldValue value, FieldValue mask) {
    String v =
        switch (this) {
          case DPID -> "0x" + Long.toHexString(value.low());
          case IN_PORT -> OfPort.name(value.low());
          case ETH_TYPE -> String.format("0x%04x", value.low());
          case IPV4_SRC, IPV4_DST -> ipv4(value, mask);
          case IPV6_SRC, IPV6_DST -> MaskedIpv6.of(value.toIpv6(), mask.toIpv6()).toString();
          default -> Long.toString(value.low());
        };
    return keyword() + "=" + v;
  }

  /**
   * The constraint a value in topic syntax states: a number (decimal or {@code 0x} hex), a port
   * name for in_port, an address with optional {@code /len} or {@code /mask} for addresses.
   * IllegalArgumentException says what is wrong with the text (the caller adds where).
   */
  public FieldConstraint parseValue(String text) {
    return switch (this) {
      case IN_PORT -> FieldConstraint.exact(this, OfPort.parse(text));
      case IPV4_SRC, IPV4_DST -> parseIpv4(text);
      case IPV6_SRC, IPV6_DST -> {
        int slash = text.indexOf('/');
        String m6 = slash < 0 ? "" : text.substring(slash + 1);
        if (m6.length() > 3 && m6.chars().allMatch(Character::isDigit)) {
          throw new IllegalArgumentException("IPv6 prefix length must be in [0, 128]: " + m6);
        }
        MaskedIpv6 m = MaskedIpv6.parse(text);
        yield new FieldConstraint(this, FieldValue.of(m.value()), FieldValue.of(m.mask()));
      }
      default -> FieldConstraint.exact(this, parseNumber(text, bits));
    };
  }

  /** An unsigned number of at most {@code bits} bits, decimal or {@code 0x} hex. */
  static long parseNumber(String text, int bits) {
    boolean hex = text.startsWith("0x") || text.startsWith("0X");
    String digits = hex ? text.substring(2) : text;
    boolean ok =
        !digits.isEmpty()
            && digits.length() <= (hex ? 16 : 20)
            && digits.chars().allMatch(c -> Character.digit(c, hex ? 16 : 10) >= 0);
    long v;
    try {
      v = ok ? Long.parseUnsignedLong(digits, hex ? 16 : 10) : 0;
    } catch (NumberFormatException e) {
      ok = false;
      v = 0;
    }
    if (!ok) {
      throw new IllegalArgumentException("not a number: '" + text + "'");
    }
    if (bits < 64 && Long.compareUnsigned(v, (1L << bits) - 1) > 0) {
      throw new IllegalArgumentException("'" + text + "' does not fit in " + bits + " bits");
    }
    return v;
  }

  private FieldConstraint parseIpv4(String text) {
    int slash = text.indexOf('/');
    long address = parseDottedQuad(slash < 0 ? text : text.substring(0, slash));
    long mask = 0xffff_ffffL;
    if (slash >= 0) {
      String m = text.substring(slash + 1);
      if (!m.isEmpty() && m.length() <= 2 && m.chars().allMatch(Character::isDigit)) {
        int length = Integer.parseInt(m);
        if (length > 32) {
          throw new IllegalArgumentException("IPv4 prefix length must be in [0, 32]: " + m);
        }
        mask = length == 0 ? 0 : (0xffff_ffffL << (32 - length)) & 0xffff_ffffL;
      } else {
        mask = parseDottedQuad(m);
      }
    }
    return new FieldConstraint(this, FieldValue.of(address), FieldValue.of(mask));
  }

  private static long parseDottedQuad(String text) {
    String[] octets = text.split("\\.", -1);
    boolean ok = octets.length == 4;
    long v = 0;
    for (int i = 0; ok && i < 4; i++) {
      String o = octets[i];
      ok = !o.isEmpty() && o.length() <= 3 && o.chars().allMatch(Character::isDigit);
      ok = ok && Integer.parseInt(o) <= 255;
      v = ok ? v << 8 | Integer.parseInt(o) : v;
    }
    if (!ok) {
      throw new IllegalArgumentException("not an IPv4 address: '" + text + "'");
    }
    return v;
  }

  private static String ipv4(FieldValue value, FieldValue mask) {
    long m = mask.low();
    String suffix;
    if (m == 0xffff_ffffL) {
      suffix = "";
    } else {
      int ones = Long.bitCount(m);
      boolean prefix = m == ((0xffff_ffffL << (32 - ones)) & 0xffff_ffffL);
      suffix = "/" + (prefix ? Integer.toString(ones) : dotted(m));
    }
    return dotted(value.low()) + suffix;
  }

  private static String dotted(long v) {
    return (v >>> 24 & 0xff) + "." + (v >>> 16 & 0xff) + "." + (v >>> 8 & 0xff) + "." + (v & 0xff);
  }
}
