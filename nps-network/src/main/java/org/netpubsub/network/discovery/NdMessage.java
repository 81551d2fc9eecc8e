package org.netpubsub.network.discovery;

import java.util.Optional;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.topology.MacAddress;

/**
 * An IPv6 neighbour solicitation or advertisement (RFC 4861 §4.3, §4.4) with its Ethernet and IPv6
 * addresses. {@code linkLayer} is the source link-layer option of a solicitation or the target
 * link-layer option of an advertisement; the flags are those of an advertisement (false in a
 * solicitation).
 */
public record NdMessage(
    Kind kind,
    MacAddress ethSrc,
    MacAddress ethDst,
    Ipv6Address src,
    Ipv6Address dst,
    Ipv6Address target,
    Optional<MacAddress> linkLayer,
    boolean router,
    boolean solicited,
    boolean override) {

  /** NS (ICMPv6 type 135) or NA (136). */
  public enum Kind {
    SOLICITATION(135),
    ADVERTISEMENT(136);

    private final int icmpType;

    Kind(int icmpType) {
      this.icmpType = icmpType;
    }

    public int icmpType() {
      return icmpType;
    }
  }

  /** ff02::1, all nodes. */
  public static final Ipv6Address ALL_NODES = Ipv6Address.parse("ff02::1");

  public NdMessage {
    if (kind == null
        || ethSrc == null
        || ethDst == null
        || src == null
        || dst == null
        || target == null
        || linkLayer == null) {
      throw new IllegalArgumentException(
          "every field of a neighbour discovery message is required");
    }
    if (kind == Kind.SOLICITATION && (router || solicited || override)) {
      throw new IllegalArgumentException("a solicitation has no flags");
    }
  }

  /** A solicitation from {@code src} for {@code target}, to its solicited-node group. */
  public static NdMessage solicitation(MacAddress mac, Ipv6Address src, Ipv6Address target) {
    Ipv6Address group = solicitedNode(target);
    return new NdMessage(
        Kind.SOLICITATION,
        mac,
        multicastMac(group),
        src,
        group,
        target,
        Optional.of(mac),
        false,
        false,
        false);
  }

  /** Duplicate address detection: a solicitation from :: for the tentative address, no option. */
  public static NdMessage dad(MacAddress mac, Ipv6Address tentative) {
    Ipv6Address group = solicitedNode(tentative);
    return new NdMessage(
        Kind.SOLICITATION,
        mac,
        multicastMac(group),
        Ipv6Address.ZERO,
        group,
        tentative,
        Optional.empty(),
        false,
        false,
        false);
  }

  /** An unsolicited advertisement of a host's own address to all nodes (override set). */
  public static NdMessage unsolicitedAdvertisement(MacAddress mac, Ipv6Address address) {
    return new NdMessage(
        Kind.ADVERTISEMENT,
        mac,
        multicastMac(ALL_NODES),
        address,
        ALL_NODES,
        address,
        Optional.of(mac),
        false,
        false,
        true);
  }

  /** True for duplicate address detection: a solicitation from the unspecified address. */
  public boolean isDad() {
    return kind == Kind.SOLICITATION && src.isZero();
  }

  /** The headers the flow tables see. */
  public PacketHeaders headers() {
    return PacketHeaders.icmp6(src, dst, kind.icmpType());
  }

  /** ff02::1:ffXX:XXXX, the solicited-node multicast group of an address (RFC 4291 §2.7.1). */
  public static Ipv6Address solicitedNode(Ipv6Address a) {
    return new Ipv6Address(0xff02_0000_0000_0000L, 0x0000_0001_ff00_0000L | (a.low() & 0xffffff));
  }

  /** 33:33 and the group's last 32 bits (RFC 2464 §7). */
  public static MacAddress multicastMac(Ipv6Address group) {
    return new MacAddress(0x3333_0000_0000L | (group.low() & 0xffff_ffffL));
  }

  /** True for ff00::/8. */
  public static boolean isMulticast(Ipv6Address a) {
    return (a.high() >>> 56) == 0xff;
  }
}
