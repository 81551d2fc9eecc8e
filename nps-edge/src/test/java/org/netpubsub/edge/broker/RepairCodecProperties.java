package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.broker.RepairCodec.Kind;
import org.netpubsub.edge.broker.RepairCodec.Repair;

/** The control datagram codec: round trips; hostile bytes are only ever a decode error. */
class RepairCodecProperties {
  @Provide
  Arbitrary<Repair> repairs() {
    Arbitrary<String> origin =
        Arbitraries.strings().withChars("ab-._09").ofMinLength(1).ofMaxLength(64);
    Arbitrary<String> topic =
        Arbitraries.strings()
            .withCharRange('a', 'z')
            .withChars('/', 'é')
            .ofMinLength(1)
            .ofMaxLength(30);
    Arbitrary<Long> session = Arbitraries.longs().filter(s -> s != 0);
    Arbitrary<Long> from = Arbitraries.longs().between(1, Long.MAX_VALUE / 2);
    Arbitrary<Long> width = Arbitraries.longs().between(0, RepairCodec.MAX_RANGE - 1);
    return Combinators.combine(Arbitraries.of(Kind.values()), origin, session, topic, from, width)
        .as(
            (k, o, s, t, f, w) ->
                switch (k) {
                  case NACK, NACK_BEFORE, GONE, SKIP -> new Repair(k, o, s, t, f, f + w);
                  case HEARTBEAT -> new Repair(k, o, s, t, f, f);
                  case REPLAY -> new Repair(k, o, s, "", 0, 0);
                  case REPLAY_END -> new Repair(k, o, s, "", w, w);
                });
  }

  @Property
  void roundTrips(@ForAll("repairs") Repair r) throws Exception {
    byte[] b = RepairCodec.encode(r);
    assertThat(RepairCodec.isRepair(b, 0, b.length)).isTrue();
    assertThat(RepairCodec.decode(b, 0, b.length)).isEqualTo(r);
    for (int len = 0; len < b.length; len++) {
      int n = len;
      assertThatThrownBy(() -> RepairCodec.decode(b, 0, n)).isInstanceOf(DatagramException.class);
    }
  }

  @Property
  void anyMutationDecodesOrFailsCleanly(
      @ForAll("repairs") Repair r,
      @ForAll @IntRange(min = 0, max = 10_000) int where,
      @ForAll byte value) {
    byte[] b = RepairCodec.encode(r);
    b[where % b.length] = value;
    try {
      Repair d = RepairCodec.decode(b, 0, b.length);
      assertThat(RepairCodec.encode(d)).isEqualTo(b);
    } catch (DatagramException e) {
      assertThat(e.reason()).isNotBlank();
    }
  }

  @Property
  void randomBytesNeverThrowAnythingElse(@ForAll byte[] junk) {
    try {
      RepairCodec.decode(junk, 0, junk.length);
    } catch (DatagramException e) {
      assertThat(e.reason()).isNotBlank();
    }
  }

  @Test
  void theLayoutIsTheDocumentedOne() {
    byte[] b = RepairCodec.encode(new Repair(Kind.NACK, "e1", 5, "a", 2, 3));
    assertThat(b)
        .containsExactly(
            'N', 'R', 1, 1, 2, 'e', '1', 0, 0, 0, 0, 0, 0, 0, 5, 0, 1, 'a', 0, 0, 0, 0, 0, 0, 0, 2,
            0, 0, 0, 0, 0, 0, 0, 3);
  }
}
