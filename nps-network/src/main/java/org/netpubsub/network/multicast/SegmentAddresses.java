package org.netpubsub.network.multicast;

import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.MaskedIpv6;

/**
 * Where replication segments live in the IPv6 address space, SRv6-style: a segment's address (its
 * BSID) is {@code ff1e:5e00:DPID:INDEX} — 32 bits {@code ff1e:5e00}, the switch's 64-bit datapath
 * id, the segment's 32-bit index on that switch. So every switch owns the prefix {@code
 * ff1e:5e00:DPID::/96}, and a packet on its way to a segment is routed by that prefix alone:
 * transit switches need one route per segment-holding switch, not one per segment.
 *
 * <p>The addresses are multicast ones (transient, global scope), apart from PLEROMA's {@code
 * ff0e::/16}: a host sends to them without neighbour discovery and without a route of its own,
 * since every Linux interface routes {@code ff00::/8}; the last segment rewrites each copy to its
 * member's unicast address.
 */
public final class SegmentAddresses {
  /** The first 32 bits of every segment address. */
  public static final long PREFIX = 0xff1e_5e00L;

  /** The length of a switch's segment prefix. */
  public static final int SWITCH_PREFIX_LENGTH = 96;

  /**
   * Indices from here to {@link #LOCAL_BASE} are entry SIDs: one per group and source, on the
   * source's switch, bound to wherever that source's tree starts now (SRv6's binding SID). A source
   * sends to it, so its address survives every re-embedding of the tree.
   */
  public static final int ENTRY_BASE = 0x4000_0000;

  /**
   * Indices from here on are local SIDs: the address that delivers to one host at its switch (the
   * paper's local segment), so that copies travel between switches by segment prefixes only.
   */
  public static final int LOCAL_BASE = 0x8000_0000;

  private SegmentAddresses() {}

  /** Entry SID number {@code n} (below 2^30) on switch {@code dpid}. */
  public static Ipv6Address entrySid(long dpid, int n) {
    if (n < 0 || n >= ENTRY_BASE) {
      throw new IllegalArgumentException("an entry SID number is 0 to 2^30-1: " + n);
    }
    return of(dpid, ENTRY_BASE | n);
  }

  /** The local SID of host number {@code host} (below 2^31) on switch {@code dpid}. */
  public static Ipv6Address localSid(long dpid, int host) {
    if (host < 0) {
      throw new IllegalArgumentException("a host number is not negative: " + host);
    }
    return of(dpid, LOCAL_BASE | host);
  }

  /** The address of segment {@code index} (32 bits, unsigned) on switch {@code dpid}. */
  public static Ipv6Address of(long dpid, int index) {
    long high = (PREFIX << 32) | (dpid >>> 32);
    long low = (dpid << 32) | (index & 0xffff_ffffL);
    return new Ipv6Address(high, low);
  }

  /** Every segment address of switch {@code dpid}. */
  public static MaskedIpv6 switchPrefix(long dpid) {
    return MaskedIpv6.prefix(of(dpid, 0), SWITCH_PREFIX_LENGTH);
  }

  /** True for an address in {@code ff1e:5e00::/32}. */
  public static boolean isSegment(Ipv6Address a) {
    return (a.high() >>> 32) == PREFIX;
  }

  /** The switch a segment address belongs to. */
  public static long dpid(Ipv6Address segment) {
    return (segment.high() << 32) | (segment.low() >>> 32);
  }

  /** The segment's index on its switch. */
  public static int index(Ipv6Address segment) {
    return (int) segment.low();
  }
}
