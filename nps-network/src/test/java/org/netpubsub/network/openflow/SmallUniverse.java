package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.netpubsub.content.address.Ipv6Address;

/**
 * A space of packets small enough to enumerate, and valid matches whose every constraint lies
 * inside it: IPv6 destinations differ in three bits, sources in one, two ports, two protocols, two
 * UDP ports, two metadata bits. Match algebra is checked against brute force over it.
 */
final class SmallUniverse {
  /** The destination bits that vary: 16, 17 and 40 of the address (two CIDR, one scattered). */
  private static final long[] DST_BITS = {1L << 47, 1L << 46, 1L << 23};

  private static final Ipv6Address DST_BASE = Ipv6Address.parse("ff0e::");
  private static final Ipv6Address SRC_BASE = Ipv6Address.parse("2001:db8::");

  private SmallUniverse() {}

  /** A packet, its in_port and its metadata. */
  record Point(PacketHeaders headers, long inPort, long metadata) {}

  static List<Point> points() {
    List<Point> out = new ArrayList<>();
    for (int d = 0; d < 8; d++) {
      for (int s = 0; s < 2; s++) {
        for (int[] protoPort : new int[][] {{17, 1}, {17, 2}, {6, 0}}) {
          PacketHeaders h =
              new PacketHeaders(
                  PacketHeaders.ETH_TYPE_IPV6, src(s), dst(d), protoPort[0], 7, protoPort[1]);
          addAll(out, h);
        }
      }
    }
    addAll(out, new PacketHeaders(PacketHeaders.ETH_TYPE_IPV4, null, null, 17, 7, 1));
    return out;
  }

  private static void addAll(List<Point> out, PacketHeaders h) {
    for (long port = 1; port <= 2; port++) {
      for (long md = 0; md < 4; md++) {
        out.add(new Point(h, port, md));
      }
    }
  }

  static Ipv6Address dst(int bits) {
    long high = DST_BASE.high();
    for (int i = 0; i < 3; i++) {
      if ((bits >> i & 1) != 0) {
        high |= DST_BITS[i];
      }
    }
    return new Ipv6Address(high, 0);
  }

  private static Ipv6Address src(int bit) {
    return new Ipv6Address(SRC_BASE.high(), bit);
  }

  private static Arbitrary<MaskedIpv6> dstField() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 7), Arbitraries.integers().between(1, 7))
        .as(
            (value, maskBits) -> {
              long mask = 0xffffL << 48;
              for (int i = 0; i < 3; i++) {
                if ((maskBits >> i & 1) != 0) {
                  mask |= DST_BITS[i];
                }
              }
              return MaskedIpv6.of(dst(value), new Ipv6Address(mask, 0));
            });
  }

  /** Valid matches (prerequisites included) over the universe's fields. */
  static Arbitrary<Match> matches() {
    Arbitrary<Integer> none = Arbitraries.just(null);
    return Combinators.combine(
            Arbitraries.integers().between(0, 3), // eth/proto: any, ipv4, ipv6, ipv6+udp, ...
            Arbitraries.longs().between(0, 2), // in_port, 0 = none
            dstField().injectNull(0.4),
            Arbitraries.integers().between(0, 2), // src: none, ::0, ::1
            Arbitraries.integers().between(0, 2), // udp_dst: none, 1, 2
            Arbitraries.integers().between(0, 3), // metadata mask
            Arbitraries.integers().between(0, 3), // metadata value
            Arbitraries.integers().between(0, 2)) // ip proto when ipv6: none, 17, 6
        .as(
            (eth, inPort, dst, src, udpDst, mdMask, mdValue, proto) -> {
              Match.Builder b = Match.builder();
              if (inPort > 0) {
                b.inPort(inPort);
              }
              if (mdMask > 0) {
                b.metadata(mdValue, mdMask);
              }
              switch (eth) {
                case 1 -> b.ethType(PacketHeaders.ETH_TYPE_IPV4);
                case 2, 3 -> {
                  b.ipv6();
                  if (dst != null) {
                    b.ipv6Dst(dst);
                  }
                  if (src > 0) {
                    b.ipv6Src(MaskedIpv6.of(SmallUniverse.src(src - 1), Ipv6Address.parse("::1")));
                  }
                  int p = eth == 3 ? 17 : proto == 1 ? 17 : proto == 2 ? 6 : -1;
                  if (p >= 0) {
                    b.ipProto(p);
                    if (p == 17 && udpDst > 0) {
                      b.udpDst(udpDst);
                    }
                  }
                }
                default -> {}
              }
              return b.build();
            })
        .filter(m -> m.prerequisiteError().isEmpty());
  }
}
