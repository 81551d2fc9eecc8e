package org.netpubsub.network.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.MacAddress;

/** ND round trips; random and mutated bytes decode to a verdict without throwing. */
class NdCodecProperties {

  @Provide
  Arbitrary<NdMessage> messages() {
    Arbitrary<MacAddress> macs =
        Arbitraries.longs()
            .between(0, 0xffff_ffff_ffffL)
            .map(v -> new MacAddress(v & ~0x0100_0000_0000L));
    Arbitrary<Ipv6Address> unicast =
        Combinators.combine(Arbitraries.longs(), Arbitraries.longs())
            .as((h, l) -> new Ipv6Address(h & 0x00ff_ffff_ffff_ffffL, l | 1));
    return Combinators.combine(
            Arbitraries.integers().between(0, 3),
            macs,
            unicast,
            unicast,
            macs,
            Arbitraries.integers().between(0, 7))
        .as(
            (kind, mac, a, b, other, flags) ->
                switch (kind) {
                  case 0 -> NdMessage.solicitation(mac, a, b);
                  case 1 -> NdMessage.dad(mac, a);
                  case 2 -> NdMessage.unsolicitedAdvertisement(mac, a);
                  default ->
                      new NdMessage(
                          NdMessage.Kind.ADVERTISEMENT,
                          mac,
                          other,
                          a,
                          b,
                          a,
                          (flags & 1) == 0 ? Optional.of(mac) : Optional.empty(),
                          (flags & 2) != 0,
                          (flags & 4) != 0,
                          true);
                });
  }

  @Property(tries = 500)
  void roundTrips(@ForAll("messages") NdMessage m) {
    assertThat(NdCodec.decode(NdCodec.encode(m))).isEqualTo(DecodeResult.ok(m));
  }

  @Property(tries = 1000)
  void randomBytesNeverThrow(@ForAll @Size(max = 100) byte[] bytes) {
    assertThat(NdCodec.decode(bytes)).isNotNull();
  }

  @Property(tries = 1000)
  void mutatedFramesNeverThrow(
      @ForAll("messages") NdMessage m,
      @ForAll @IntRange(min = 0, max = 85) int position,
      @ForAll byte value,
      @ForAll @IntRange(min = 0, max = 90) int truncateTo) {
    byte[] b = NdCodec.encode(m);
    if (position < b.length) {
      b[position] = value;
    }
    DecodeResult<NdMessage> r = NdCodec.decode(b);
    if (position >= 22 && position < b.length && value != NdCodec.encode(m)[position]) {
      // The checksum guards the addresses and every ICMPv6 byte: one changed byte cannot decode.
      assertThat(r.isOk()).isFalse();
    }
    assertThat(
            NdCodec.decode(
                java.util.Arrays.copyOf(NdCodec.encode(m), Math.min(truncateTo, b.length))))
        .isNotNull();
  }
}
