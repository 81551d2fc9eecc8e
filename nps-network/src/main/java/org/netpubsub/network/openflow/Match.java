package org.netpubsub.network.openflow;

import java.util.Objects;
import java.util.Optional;

/**
 * The match of a flow entry: every field optional (null = wildcard). IPv6 addresses and metadata
 * take arbitrary masks; the other fields are exact, as OpenFlow 1.3 defines them. {@code
 * icmpv6Type} (OXM ICMPV6_TYPE) lets neighbour discovery go to the controller without ping. A
 * masked field whose mask is zero is a wildcard and is dropped, so equal matches compare equal.
 *
 * <p>A match may be built without its OpenFlow prerequisites (IPv6 addresses need {@code
 * eth_type=0x86dd}, {@code ip_proto} needs IPv4 or IPv6, UDP ports need {@code ip_proto=17}); a
 * switch rejects such a match ({@link #prerequisiteError()}). {@link #covers} and {@link #overlaps}
 * are defined for matches that satisfy them.
 */
public record Match(
    Long inPort,
    Integer ethType,
    MaskedIpv6 ipv6Src,
    MaskedIpv6 ipv6Dst,
    Integer ipProto,
    Integer udpSrc,
    Integer udpDst,
    MaskedLong metadata,
    Integer icmpv6Type) {

  /** Matches every packet. */
  public static final Match ANY = builder().build();

  public Match {
    if (inPort != null && (inPort < 0 || inPort > OfPort.ANY)) {
      throw new IllegalArgumentException("in_port out of range: " + inPort);
    }
    range(ethType, 0xffff, "eth_type");
    range(ipProto, 0xff, "ip_proto");
    range(udpSrc, 0xffff, "udp_src");
    range(udpDst, 0xffff, "udp_dst");
    range(icmpv6Type, 0xff, "icmpv6_type");
    if (ipv6Src != null && ipv6Src.mask().isZero()) {
      ipv6Src = null;
    }
    if (ipv6Dst != null && ipv6Dst.mask().isZero()) {
      ipv6Dst = null;
    }
    if (metadata != null && metadata.mask() == 0) {
      metadata = null;
    }
  }

  /** A match without an ICMPv6 type (the fields before {@code icmpv6Type} was added). */
  public Match(
      Long inPort,
      Integer ethType,
      MaskedIpv6 ipv6Src,
      MaskedIpv6 ipv6Dst,
      Integer ipProto,
      Integer udpSrc,
      Integer udpDst,
      MaskedLong metadata) {
    this(inPort, ethType, ipv6Src, ipv6Dst, ipProto, udpSrc, udpDst, metadata, null);
  }

  private static void range(Integer v, int max, String field) {
    if (v != null && (v < 0 || v > max)) {
      throw new IllegalArgumentException(field + " out of range: " + v);
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.inPort = inPort;
    b.ethType = ethType;
    b.ipv6Src = ipv6Src;
    b.ipv6Dst = ipv6Dst;
    b.ipProto = ipProto;
    b.udpSrc = udpSrc;
    b.udpDst = udpDst;
    b.metadata = metadata;
    b.icmpv6Type = icmpv6Type;
    return b;
  }

  /** OFPBMC_BAD_PREREQ if a field lacks its OpenFlow 1.3 prerequisite (OXM table 12). */
  public Optional<OpenFlowError> prerequisiteError() {
    boolean ip = isEthType(PacketHeaders.ETH_TYPE_IPV4) || isEthType(PacketHeaders.ETH_TYPE_IPV6);
    boolean bad =
        ((ipv6Src != null || ipv6Dst != null) && !isEthType(PacketHeaders.ETH_TYPE_IPV6))
            || (ipProto != null && !ip)
            || ((udpSrc != null || udpDst != null)
                && !(ip && Objects.equals(ipProto, PacketHeaders.IP_PROTO_UDP)))
            || (icmpv6Type != null
                && !(isEthType(PacketHeaders.ETH_TYPE_IPV6)
                    && Objects.equals(ipProto, PacketHeaders.IP_PROTO_ICMPV6)));
    return bad ? Optional.of(OpenFlowError.OFPBMC_BAD_PREREQ) : Optional.empty();
  }

  /** True if the match pins the EtherType to {@code type}. */
  public boolean isEthType(int type) {
    return ethType != null && ethType == type;
  }

  /**
   * True if a packet with these headers, entering by {@code inPort} with this pipeline {@code
   * metadata}, matches. A field the packet does not have (the IPv6 source of an IPv4 packet) never
   * matches a constraint on it.
   */
  public boolean matches(PacketHeaders h, long inPort, long metadata) {
    return (this.inPort == null || this.inPort == inPort)
        && (ethType == null || ethType == h.ethType())
        && (ipv6Src == null || (h.isIpv6() && ipv6Src.matches(h.ipv6Src())))
        && (ipv6Dst == null || (h.isIpv6() && ipv6Dst.matches(h.ipv6Dst())))
        && (ipProto == null || (h.isIp() && ipProto == h.ipProto()))
        && (udpSrc == null || (h.isUdp() && udpSrc == h.udpSrc()))
        && (udpDst == null || (h.isUdp() && udpDst == h.udpDst()))
        && (this.metadata == null || this.metadata.matches(metadata))
        && (icmpv6Type == null || (h.isIcmpv6() && icmpv6Type == h.icmpv6Type()));
  }

  /**
   * True if every field this match constrains is constrained by {@code other} at least as tightly
   * and consistently: OpenFlow's rule for non-strict modify and delete ("a flow entry matches if
   * its match is at least as specific as the request's").
   */
  public boolean covers(Match other) {
    return exactCovers(inPort, other.inPort)
        && exactCovers(ethType, other.ethType)
        && (ipv6Src == null || (other.ipv6Src != null && ipv6Src.covers(other.ipv6Src)))
        && (ipv6Dst == null || (other.ipv6Dst != null && ipv6Dst.covers(other.ipv6Dst)))
        && exactCovers(ipProto, other.ipProto)
        && exactCovers(udpSrc, other.udpSrc)
        && exactCovers(udpDst, other.udpDst)
        && (metadata == null || (other.metadata != null && metadata.covers(other.metadata)))
        && exactCovers(icmpv6Type, other.icmpv6Type);
  }

  private static boolean exactCovers(Object mine, Object theirs) {
    return mine == null || mine.equals(theirs);
  }

  /** True if some packet (in some port, with some metadata) matches both (OFPFF_CHECK_OVERLAP). */
  public boolean overlaps(Match other) {
    return exactOverlaps(inPort, other.inPort)
        && exactOverlaps(ethType, other.ethType)
        && (ipv6Src == null || other.ipv6Src == null || ipv6Src.overlaps(other.ipv6Src))
        && (ipv6Dst == null || other.ipv6Dst == null || ipv6Dst.overlaps(other.ipv6Dst))
        && exactOverlaps(ipProto, other.ipProto)
        && exactOverlaps(udpSrc, other.udpSrc)
        && exactOverlaps(udpDst, other.udpDst)
        && (metadata == null || other.metadata == null || metadata.overlaps(other.metadata))
        && exactOverlaps(icmpv6Type, other.icmpv6Type);
  }

  private static boolean exactOverlaps(Object a, Object b) {
    return a == null || b == null || a.equals(b);
  }

  /**
   * Field by field, as a record compares, but written out: switch tables index entries by match,
   * and the generated version dispatches through method handles the JIT does not inline here.
   */
  @Override
  public boolean equals(Object o) {
    return this == o
        || o instanceof Match m
            && Objects.equals(ipv6Dst, m.ipv6Dst)
            && Objects.equals(udpDst, m.udpDst)
            && Objects.equals(ethType, m.ethType)
            && Objects.equals(ipProto, m.ipProto)
            && Objects.equals(inPort, m.inPort)
            && Objects.equals(ipv6Src, m.ipv6Src)
            && Objects.equals(udpSrc, m.udpSrc)
            && Objects.equals(metadata, m.metadata)
            && Objects.equals(icmpv6Type, m.icmpv6Type);
  }

  @Override
  public int hashCode() {
    int h = Objects.hashCode(inPort);
    h = 31 * h + Objects.hashCode(ethType);
    h = 31 * h + Objects.hashCode(ipv6Src);
    h = 31 * h + Objects.hashCode(ipv6Dst);
    h = 31 * h + Objects.hashCode(ipProto);
    h = 31 * h + Objects.hashCode(udpSrc);
    h = 31 * h + Objects.hashCode(udpDst);
    h = 31 * h + Objects.hashCode(metadata);
    return 31 * h + Objects.hashCode(icmpv6Type);
  }

  /** The match in ovs-ofctl syntax ({@code ipv6,ipv6_dst=ff0e::/16}); empty for {@link #ANY}. */
  @Override
  public String toString() {
    return OvsFlowSyntax.match(this);
  }

  /** Builds a match field by field. */
  public static final class Builder {
    private Long inPort;
    private Integer ethType;
    private MaskedIpv6 ipv6Src;
    private MaskedIpv6 ipv6Dst;
    private Integer ipProto;
    private Integer udpSrc;
    private Integer udpDst;
    private MaskedLong metadata;
    private Integer icmpv6Type;

    private Builder() {}

    public Builder inPort(long port) {
      inPort = port;
      return this;
    }

    public Builder ethType(int type) {
      ethType = type;
      return this;
    }

    /** eth_type=0x86dd. */
    public Builder ipv6() {
      return ethType(PacketHeaders.ETH_TYPE_IPV6);
    }

    /** eth_type=0x86dd, ip_proto=17. */
    public Builder udp6() {
      return ipv6().ipProto(PacketHeaders.IP_PROTO_UDP);
    }

    /** eth_type=0x86dd, ip_proto=58. */
    public Builder icmp6() {
      return ipv6().ipProto(PacketHeaders.IP_PROTO_ICMPV6);
    }

    /** icmpv6_type (needs {@link #icmp6}). */
    public Builder icmpv6Type(int type) {
      icmpv6Type = type;
      return this;
    }

    public Builder ipv6Src(MaskedIpv6 v) {
      ipv6Src = v;
      return this;
    }

    public Builder ipv6Dst(MaskedIpv6 v) {
      ipv6Dst = v;
      return this;
    }

    /** IPv6 destination in ovs-ofctl form: {@code ff0e::/16}, {@code ff0e::/ffff:e000::}. */
    public Builder ipv6Dst(String masked) {
      return ipv6Dst(MaskedIpv6.parse(masked));
    }

    public Builder ipv6Src(String masked) {
      return ipv6Src(MaskedIpv6.parse(masked));
    }

    public Builder ipProto(int proto) {
      ipProto = proto;
      return this;
    }

    public Builder udpSrc(int port) {
      udpSrc = port;
      return this;
    }

    public Builder udpDst(int port) {
      udpDst = port;
      return this;
    }

    public Builder metadata(long value, long mask) {
      metadata = new MaskedLong(value, mask);
      return this;
    }

    public Builder metadata(MaskedLong v) {
      metadata = v;
      return this;
    }

    /** Removes the field of the given name (as {@link Match} components are named). */
    public Builder clear(String field) {
      switch (field) {
        case "inPort" -> inPort = null;
        case "ethType" -> ethType = null;
        case "ipv6Src" -> ipv6Src = null;
        case "ipv6Dst" -> ipv6Dst = null;
        case "ipProto" -> ipProto = null;
        case "udpSrc" -> udpSrc = null;
        case "udpDst" -> udpDst = null;
        case "metadata" -> metadata = null;
        case "icmpv6Type" -> icmpv6Type = null;
        default -> throw new IllegalArgumentException("no match field " + field);
      }
      return this;
    }

    public Match build() {
      return new Match(
          inPort, ethType, ipv6Src, ipv6Dst, ipProto, udpSrc, udpDst, metadata, icmpv6Type);
    }
  }
}
