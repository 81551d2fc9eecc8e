package org.netpubsub.network.nbi;

import static org.netpubsub.network.nbi.TestFrames.ICMPV6;
import static org.netpubsub.network.nbi.TestFrames.TCP;
import static org.netpubsub.network.nbi.TestFrames.UDP;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.OfPort;

/**
 * Packet-ins and topics over a small universe of values, so that random topics often match random
 * packets: topics are cut from a sample packet's own fields and bytes, then some are masked or
 * nudged. Packets include truncated, bit-flipped and random frames.
 */
final class NbiArbitraries {
  static final List<Ipv6Address> V6 =
      List.of(
          Ipv6Address.parse("2001:db8::1"),
          Ipv6Address.parse("2001:db8::2"),
          Ipv6Address.parse("ff0e::7073"));
  static final List<Long> V4 = List.of(0x0a000001L, 0x0a000002L, 0x0a000101L);
  static final List<Integer> PORTS = List.of(53, 80, 7073);

  /** Byte windows over the Ethernet type, IP addresses and L4 ports of untagged frames. */
  static final List<ByteWindow> WINDOWS =
      List.of(
          new ByteWindow(0, 6),
          new ByteWindow(12, 2),
          new ByteWindow(23, 1),
          new ByteWindow(30, 4),
          new ByteWindow(38, 16),
          new ByteWindow(54, 2),
          new ByteWindow(56, 2));

  private NbiArbitraries() {}

  static Arbitrary<PacketInView> packets() {
    Arbitrary<byte[]> udp6 =
        Combinators.combine(
                Arbitraries.of(V6),
                Arbitraries.of(V6),
                Arbitraries.of(PORTS),
                Arbitraries.of(PORTS))
            .as((s, d, sp, dp) -> TestFrames.ipv6(s, d, UDP, TestFrames.udp(sp, dp, new byte[4])));
    Arbitrary<byte[]> icmp6 =
        Combinators.combine(Arbitraries.of(V6), Arbitraries.of(V6), Arbitraries.of(128, 135, 136))
            .as((s, d, type) -> TestFrames.ipv6(s, d, ICMPV6, TestFrames.icmpv6(type)));
    Arbitrary<byte[]> tcp4 =
        Combinators.combine(
                Arbitraries.of(V4),
                Arbitraries.of(V4),
                Arbitraries.of(PORTS),
                Arbitraries.of(PORTS))
            .as((s, d, sp, dp) -> TestFrames.ipv4(s, d, TCP, 0, TestFrames.tcp(sp, dp)));
    Arbitrary<byte[]> udp4 =
        Combinators.combine(Arbitraries.of(V4), Arbitraries.of(V4), Arbitraries.of(PORTS))
            .as((s, d, dp) -> TestFrames.ipv4(s, d, UDP, 0, TestFrames.udp(1, dp, new byte[0])));
    Arbitrary<Integer> vlans = Arbitraries.frequency(Tuple.of(5, 0), Tuple.of(1, 1));
    Arbitrary<byte[]> frames =
        Arbitraries.frequencyOf(
            Tuple.of(
                4,
                Combinators.combine(vlans, udp6).as((v, p) -> TestFrames.ethernet(0x86dd, v, p))),
            Tuple.of(
                2,
                Combinators.combine(vlans, icmp6).as((v, p) -> TestFrames.ethernet(0x86dd, v, p))),
            Tuple.of(
                2,
                Combinators.combine(vlans, tcp4).as((v, p) -> TestFrames.ethernet(0x0800, v, p))),
            Tuple.of(1, udp4.map(p -> TestFrames.ethernet(0x0800, 0, p))),
            Tuple.of(1, Arbitraries.just(TestFrames.ethernet(0x88cc, 0, new byte[30]))),
            Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(80)));
    Arbitrary<byte[]> damaged =
        Combinators.combine(
                frames,
                Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 999))
            .as(NbiArbitraries::damage);
    return Combinators.combine(
            Arbitraries.of(1L, 2L, 0xffff_ffff_ffff_fff0L),
            Arbitraries.of(1L, 2L, OfPort.LOCAL),
            Arbitraries.longs().between(0, 0xffffffffL),
            damaged)
        .as(PacketInView::new);
  }

  /** 0: intact (twice as likely), 1: truncated, 2: one bit flipped. */
  private static byte[] damage(byte[] f, int how, int where) {
    if (how == 1) {
      return TestFrames.truncate(f, where % (f.length + 1));
    }
    if (how == 2 && f.length > 0) {
      byte[] g = f.clone();
      g[where % g.length] ^= (byte) (1 << (where % 8));
      return g;
    }
    return f;
  }

  /** How one constraint of a topic is cut from a sample packet. */
  record Pick(int field, int mask, boolean nudge) {}

  static Arbitrary<NbiTopic> topics() {
    int fields = HeaderField.values().length + WINDOWS.size();
    Arbitrary<Pick> picks =
        Combinators.combine(
                Arbitraries.integers().between(0, fields - 1),
                Arbitraries.integers().between(0, 3),
                Arbitraries.frequency(Tuple.of(4, false), Tuple.of(1, true)))
            .as(Pick::new);
    Arbitrary<NbiTopic> cut =
        Combinators.combine(packets(), picks.list().ofMinSize(1).ofMaxSize(3))
            .as(NbiArbitraries::topic);
    return Arbitraries.frequencyOf(Tuple.of(12, cut), Tuple.of(1, Arbitraries.just(NbiTopic.ANY)));
  }

  static NbiTopic topic(PacketInView sample, List<Pick> picks) {
    List<FieldConstraint> cs = new ArrayList<>();
    for (Pick p : picks) {
      HeaderField[] named = HeaderField.values();
      TopicField f =
          p.field() < named.length ? named[p.field()] : WINDOWS.get(p.field() - named.length);
      FieldValue full = f.fullMask();
      FieldValue v = f.read(sample);
      if (v == null) {
        v = FieldValue.of(17).and(full); // a value the sample lacks: matches other packets, maybe
      }
      FieldValue mask = f.maskable() ? mask(f.bits(), p.mask()) : full;
      if (p.nudge()) {
        v = new FieldValue(v.high(), v.low() ^ 1).and(full);
      }
      FieldConstraint c = new FieldConstraint(f, v, mask);
      List<FieldConstraint> with = new ArrayList<>(cs);
      with.add(c);
      if (NbiTopic.problem(with).isEmpty()) {
        cs.add(c);
      }
    }
    return new NbiTopic(cs);
  }

  /** 0, 1: all ones; 2: the upper half of the bits (a prefix); 3: every other byte. */
  private static FieldValue mask(int bits, int choice) {
    FieldValue full = FieldValue.lowBits(bits);
    return switch (choice) {
      case 2 -> {
        FieldValue low = FieldValue.lowBits(bits / 2);
        yield new FieldValue(full.high() & ~low.high(), full.low() & ~low.low());
      }
      case 3 -> new FieldValue(0xff00ff00ff00ff00L, 0xff00ff00ff00ff00L).and(full);
      default -> full;
    };
  }
}
