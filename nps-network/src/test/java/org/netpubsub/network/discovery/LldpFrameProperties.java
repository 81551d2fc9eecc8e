package org.netpubsub.network.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.OptionalLong;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.netpubsub.network.topology.MacAddress;

/** LLDP encode/decode round trips, and hostile bytes decode to a verdict without throwing. */
class LldpFrameProperties {

  @Provide
  Arbitrary<LldpFrame> frames() {
    return Combinators.combine(
            Arbitraries.longs().between(0, 0xffff_ffff_ffffL),
            Arbitraries.longs(),
            Arbitraries.longs().between(1, 0xffffff00L),
            Arbitraries.integers().between(0, 0xffff),
            Arbitraries.longs().injectNull(0.2))
        .as(
            (mac, dpid, port, ttl, nonce) ->
                new LldpFrame(
                    new MacAddress(mac),
                    dpid,
                    port,
                    ttl,
                    nonce == null ? OptionalLong.empty() : OptionalLong.of(nonce)));
  }

  @Property(tries = 500)
  void roundTrips(@ForAll("frames") LldpFrame f) {
    assertThat(LldpFrame.decode(f.encode())).isEqualTo(DecodeResult.ok(f));
  }

  @Property(tries = 1000)
  void randomBytesNeverThrow(@ForAll @Size(max = 120) byte[] bytes) {
    assertThat(LldpFrame.decode(bytes)).isNotNull();
  }

  @Property(tries = 1000)
  void mutatedFramesNeverThrowAndKeepTheirFieldsWhenTheyStillDecode(
      @ForAll("frames") LldpFrame f,
      @ForAll @IntRange(min = 0, max = 59) int position,
      @ForAll byte value,
      @ForAll @IntRange(min = 0, max = 70) int truncateTo) {
    byte[] b = f.encode();
    b[position] = value;
    DecodeResult<LldpFrame> mutated = LldpFrame.decode(b);
    if (mutated instanceof DecodeResult.Ok<LldpFrame> ok && position >= 14 + 11 + 7 + 4) {
      // Past the mandatory TLVs, a mutation may only drop or change the nonce.
      assertThat(ok.value().dpid()).isEqualTo(f.dpid());
      assertThat(ok.value().port()).isEqualTo(f.port());
    }
    byte[] cut = Arrays.copyOf(f.encode(), Math.min(truncateTo, b.length));
    DecodeResult<LldpFrame> truncated = LldpFrame.decode(cut);
    int needed = 14 + 11 + 7 + 4 + (f.nonce().isPresent() ? 14 : 0) + 2;
    assertThat(truncated.isOk()).isEqualTo(cut.length >= needed);
  }
}
