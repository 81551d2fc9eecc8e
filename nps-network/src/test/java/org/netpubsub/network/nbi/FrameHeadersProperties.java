package org.netpubsub.network.nbi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.netpubsub.content.address.Ipv6Address;

/**
 * Header parsing of hostile bytes: it never throws, and cutting a frame short only ever takes
 * fields away — a prefix never yields a value the whole frame does not have.
 */
class FrameHeadersProperties {

  @Property(tries = 1000)
  void aPrefixHasASubsetOfTheFields(@ForAll("frames") byte[] frame, @ForAll int cut) {
    FrameHeaders whole = FrameHeaders.parse(frame);
    byte[] prefix = TestFrames.truncate(frame, Math.floorMod(cut, frame.length + 1));
    FrameHeaders part = FrameHeaders.parse(prefix);
    assertSubset(part, whole, h -> box(h.ethType().isPresent(), h.ethType().orElse(0)));
    assertSubset(part, whole, h -> box(h.ipProto().isPresent(), h.ipProto().orElse(0)));
    assertSubset(part, whole, h -> box(h.ipv4Src().isPresent(), h.ipv4Src().orElse(0)));
    assertSubset(part, whole, h -> box(h.ipv4Dst().isPresent(), h.ipv4Dst().orElse(0)));
    assertSubset(part, whole, h -> h.ipv6Src().map(Ipv6Address::toString));
    assertSubset(part, whole, h -> h.ipv6Dst().map(Ipv6Address::toString));
    assertSubset(part, whole, h -> box(h.tcpSrc().isPresent(), h.tcpSrc().orElse(0)));
    assertSubset(part, whole, h -> box(h.tcpDst().isPresent(), h.tcpDst().orElse(0)));
    assertSubset(part, whole, h -> box(h.udpSrc().isPresent(), h.udpSrc().orElse(0)));
    assertSubset(part, whole, h -> box(h.udpDst().isPresent(), h.udpDst().orElse(0)));
    assertSubset(part, whole, h -> box(h.icmpv6Type().isPresent(), h.icmpv6Type().orElse(0)));
  }

  @Property(tries = 1000)
  void everyFieldOfAPacketInReadsWithoutThrowing(@ForAll("frames") byte[] frame) {
    PacketInView p = new PacketInView(1, 1, 1, frame);
    for (HeaderField f : HeaderField.values()) {
      FieldValue v = f.read(p);
      assertThat(v == null || v.within(f.fullMask())).isTrue();
    }
    for (ByteWindow w : NbiArbitraries.WINDOWS) {
      assertThat(w.read(p) == null).isEqualTo(w.offset() + w.length() > frame.length);
    }
  }

  private static Optional<String> box(boolean present, long v) {
    return present ? Optional.of(Long.toString(v)) : Optional.empty();
  }

  private static void assertSubset(
      FrameHeaders part, FrameHeaders whole, Function<FrameHeaders, Optional<String>> field) {
    Optional<String> p = field.apply(part);
    if (p.isPresent()) {
      assertThat(field.apply(whole)).contains(p.get());
    }
  }

  @Provide
  Arbitrary<byte[]> frames() {
    Arbitrary<byte[]> random = Arbitraries.bytes().array(byte[].class).ofMaxSize(120);
    Arbitrary<byte[]> real = NbiArbitraries.packets().map(PacketInView::data);
    // an IPv6 frame whose extension headers have random lengths and next headers
    Arbitrary<byte[]> chains =
        Arbitraries.bytes()
            .array(byte[].class)
            .ofMinSize(8)
            .ofMaxSize(80)
            .map(
                tail ->
                    TestFrames.ethernet(
                        0x86dd,
                        0,
                        TestFrames.ipv6(Ipv6Address.ZERO, Ipv6Address.ZERO, tail[0] & 1, tail)));
    return Arbitraries.frequencyOf(Tuple.of(1, random), Tuple.of(3, real), Tuple.of(1, chains));
  }
}
