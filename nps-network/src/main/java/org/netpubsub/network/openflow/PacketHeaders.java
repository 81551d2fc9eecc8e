package org.netpubsub.network.openflow;

import java.util.Comparator;
import org.netpubsub.content.address.Ipv6Address;

/**
 * The header fields of a packet that netpubsub's flows look at: EtherType, IPv6 source and
 * destination, IP protocol, UDP ports, ICMPv6 type. Fields a packet does not have (IPv6 addresses
 * of a non-IPv6 packet, UDP ports of a non-UDP packet) are kept zero, so equal packets compare
 * equal.
 */
public record PacketHeaders(
    int ethType,
    Ipv6Address ipv6Src,
    Ipv6Address ipv6Dst,
    int ipProto,
    int udpSrc,
    int udpDst,
    int icmpv6Type)
    implements Comparable<PacketHeaders> {
  public static final int ETH_TYPE_IPV4 = 0x0800;
  public static final int ETH_TYPE_IPV6 = 0x86dd;
  public static final int ETH_TYPE_LLDP = 0x88cc;
  public static final int IP_PROTO_TCP = 6;
  public static final int IP_PROTO_UDP = 17;
  public static final int IP_PROTO_ICMPV6 = 58;

  private static final Comparator<PacketHeaders> ORDER =
      Comparator.comparingInt(PacketHeaders::ethType)
          .thenComparing(PacketHeaders::ipv6Src)
          .thenComparing(PacketHeaders::ipv6Dst)
          .thenComparingInt(PacketHeaders::ipProto)
          .thenComparingInt(PacketHeaders::udpSrc)
          .thenComparingInt(PacketHeaders::udpDst)
          .thenComparingInt(PacketHeaders::icmpv6Type);

  public PacketHeaders {
    check(ethType, 0xffff, "eth_type");
    check(ipProto, 0xff, "ip_proto");
    check(udpSrc, 0xffff, "udp_src");
    check(udpDst, 0xffff, "udp_dst");
    check(icmpv6Type, 0xff, "icmpv6_type");
    boolean ip = ethType == ETH_TYPE_IPV4 || ethType == ETH_TYPE_IPV6;
    if (ethType != ETH_TYPE_IPV6 || ipv6Src == null) {
      ipv6Src = Ipv6Address.ZERO;
    }
    if (ethType != ETH_TYPE_IPV6 || ipv6Dst == null) {
      ipv6Dst = Ipv6Address.ZERO;
    }
    if (!ip) {
      ipProto = 0;
    }
    if (!ip || ipProto != IP_PROTO_UDP) {
      udpSrc = 0;
      udpDst = 0;
    }
    if (ethType != ETH_TYPE_IPV6 || ipProto != IP_PROTO_ICMPV6) {
      icmpv6Type = 0;
    }
  }

  /** Headers without an ICMPv6 type (the fields before {@code icmpv6Type} was added). */
  public PacketHeaders(
      int ethType, Ipv6Address ipv6Src, Ipv6Address ipv6Dst, int ipProto, int udpSrc, int udpDst) {
    this(ethType, ipv6Src, ipv6Dst, ipProto, udpSrc, udpDst, 0);
  }

  private static void check(int v, int max, String field) {
    if (v < 0 || v > max) {
      throw new IllegalArgumentException(field + " out of range: " + v);
    }
  }

  /** An IPv6 UDP packet. */
  public static PacketHeaders udp6(Ipv6Address src, Ipv6Address dst, int udpSrc, int udpDst) {
    return new PacketHeaders(ETH_TYPE_IPV6, src, dst, IP_PROTO_UDP, udpSrc, udpDst);
  }

  /** An ICMPv6 packet of the given type (135 neighbour solicitation, 136 advertisement...). */
  public static PacketHeaders icmp6(Ipv6Address src, Ipv6Address dst, int type) {
    return new PacketHeaders(ETH_TYPE_IPV6, src, dst, IP_PROTO_ICMPV6, 0, 0, type);
  }

  public static Builder builder() {
    return new Builder();
  }

  public boolean isIp() {
    return ethType == ETH_TYPE_IPV4 || ethType == ETH_TYPE_IPV6;
  }

  public boolean isIpv6() {
    return ethType == ETH_TYPE_IPV6;
  }

  public boolean isUdp() {
    return isIp() && ipProto == IP_PROTO_UDP;
  }

  public boolean isIcmpv6() {
    return isIpv6() && ipProto == IP_PROTO_ICMPV6;
  }

  public PacketHeaders withIpv6Src(Ipv6Address a) {
    return new PacketHeaders(ethType, a, ipv6Dst, ipProto, udpSrc, udpDst, icmpv6Type);
  }

  public PacketHeaders withIpv6Dst(Ipv6Address a) {
    return new PacketHeaders(ethType, ipv6Src, a, ipProto, udpSrc, udpDst, icmpv6Type);
  }

  public PacketHeaders withUdpSrc(int port) {
    return new PacketHeaders(ethType, ipv6Src, ipv6Dst, ipProto, port, udpDst, icmpv6Type);
  }

  public PacketHeaders withUdpDst(int port) {
    return new PacketHeaders(ethType, ipv6Src, ipv6Dst, ipProto, udpSrc, port, icmpv6Type);
  }

  @Override
  public int compareTo(PacketHeaders o) {
    return ORDER.compare(this, o);
  }

  /** The packet in ovs-ofctl flow syntax, e.g. {@code udp6,ipv6_src=::1,ipv6_dst=ff0e::1,...}. */
  @Override
  public String toString() {
    return OvsFlowSyntax.packet(this);
  }

  /** Builds packet headers field by field; unset fields are zero. */
  public static final class Builder {
    private int ethType;
    private Ipv6Address ipv6Src = Ipv6Address.ZERO;
    private Ipv6Address ipv6Dst = Ipv6Address.ZERO;
    private int ipProto;
    private int udpSrc;
    private int udpDst;
    private int icmpv6Type;

    private Builder() {}

    public Builder ethType(int v) {
      ethType = v;
      return this;
    }

    public Builder ipv6Src(Ipv6Address v) {
      ipv6Src = v;
      return this;
    }

    public Builder ipv6Dst(Ipv6Address v) {
      ipv6Dst = v;
      return this;
    }

    public Builder ipProto(int v) {
      ipProto = v;
      return this;
    }

    public Builder udpSrc(int v) {
      udpSrc = v;
      return this;
    }

    public Builder udpDst(int v) {
      udpDst = v;
      return this;
    }

    public Builder icmpv6Type(int v) {
      icmpv6Type = v;
      return this;
    }

    public PacketHeaders build() {
      return new PacketHeaders(ethType, ipv6Src, ipv6Dst, ipProto, udpSrc, udpDst, icmpv6Type);
    }
  }
}
