package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The datagram codec: round trips, and hostile bytes never escape as anything but a decode error.
 */
class DatagramCodecProperties {
  @Provide
  Arbitrary<EdgeMessage> messages() {
    Arbitrary<String> origin =
        Arbitraries.strings().withChars("ab-._09Z").ofMinLength(1).ofMaxLength(64);
    Arbitrary<String> topic =
        Arbitraries.strings()
            .withCharRange('a', 'z')
            .withChars('/', 'é', '$', ' ', '日')
            .ofMinLength(1)
            .ofMaxLength(40);
    Arbitrary<byte[]> payload = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
    return Combinators.combine(
            origin,
            Arbitraries.longs(),
            topic,
            payload,
            Arbitraries.integers().between(0, 2),
            Arbitraries.of(true, false))
        .as(EdgeMessage::new);
  }

  @Property
  void roundTrips(@ForAll("messages") EdgeMessage m) throws Exception {
    byte[] b = DatagramCodec.encode(m);
    assertThat(b).hasSize(DatagramCodec.size(m));
    assertThat(DatagramCodec.decode(b, 0, b.length)).isEqualTo(m);
  }

  @Property
  void reliableAndReplayDatagramsRoundTrip(
      @ForAll("messages") EdgeMessage m, @ForAll long session, @ForAll boolean replay)
      throws Exception {
    byte[] b = DatagramCodec.encode(m, session, replay);
    assertThat(b[2]).isEqualTo(session == 0 ? (byte) 1 : (byte) 2);
    assertThat(DatagramCodec.decodeDatagram(b, 0, b.length))
        .isEqualTo(new DatagramCodec.Datagram(m, session, replay));
    for (int len = 0; len < b.length; len++) {
      int n = len;
      assertThatThrownBy(() -> DatagramCodec.decode(b, 0, n)).isInstanceOf(DatagramException.class);
    }
  }

  @Test
  void aReliableDatagramIsVersionOnePlusTheSession() throws Exception {
    EdgeMessage m = new EdgeMessage("e1", 7, "a/b", new byte[] {9}, 1, true);
    byte[] b = DatagramCodec.encode(m, 0x0102, false);
    assertThat(b)
        .containsExactly(
            'N', 'E', 2, 0b011, 2, 'e', '1', 0, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 7, 0, 3,
            'a', '/', 'b', 0, 1, 9);
    byte[] zero = b.clone();
    zero[13] = 0;
    zero[14] = 0;
    assertThatThrownBy(() -> DatagramCodec.decode(zero, 0, zero.length))
        .isInstanceOf(DatagramException.class)
        .extracting(e -> ((DatagramException) e).reason())
        .isEqualTo("bad_session");
  }

  @Property
  void everyTruncationIsADecodeError(@ForAll("messages") EdgeMessage m) throws Exception {
    byte[] b = DatagramCodec.encode(m);
    for (int len = 0; len < b.length; len++) {
      int n = len;
      assertThatThrownBy(() -> DatagramCodec.decode(b, 0, n)).isInstanceOf(DatagramException.class);
    }
  }

  @Property
  void anyMutationDecodesOrFailsCleanly(
      @ForAll("messages") EdgeMessage m,
      @ForAll long session,
      @ForAll @IntRange(min = 0, max = 10_000) int where,
      @ForAll byte value)
      throws Exception {
    byte[] b = DatagramCodec.encode(m, session, false);
    b[where % b.length] = value;
    try {
      DatagramCodec.Datagram d = DatagramCodec.decodeDatagram(b, 0, b.length);
      // a mutation that still decodes yields a valid message that re-encodes to the same bytes
      assertThat(DatagramCodec.encode(d.message(), d.session(), d.replay())).isEqualTo(b);
    } catch (DatagramException e) {
      assertThat(e.reason()).isNotBlank();
    }
  }

  @Property
  void randomBytesNeverThrowAnythingElse(@ForAll byte[] junk) {
    try {
      DatagramCodec.decode(junk, 0, junk.length);
    } catch (DatagramException e) {
      assertThat(e.reason()).isNotBlank();
    }
  }

  @Test
  void aMessageOverOneDatagramIsRefusedNotTruncated() {
    int room = DatagramCodec.MAX_DATAGRAM - DatagramCodec.size(msg(new byte[0]));
    assertThat(DatagramCodec.size(msg(new byte[room]))).isEqualTo(DatagramCodec.MAX_DATAGRAM);
    assertThatThrownBy(() -> DatagramCodec.encode(msg(new byte[room + 1])))
        .isInstanceOf(DatagramException.class)
        .hasMessageContaining("over one datagram")
        .extracting(e -> ((DatagramException) e).reason())
        .isEqualTo("too_large");
  }

  @Test
  void theLayoutIsTheDocumentedOne() throws Exception {
    byte[] b = DatagramCodec.encode(new EdgeMessage("e1", 7, "a/b", new byte[] {9}, 1, true));
    assertThat(b)
        .containsExactly(
            'N', 'E', 1, 0b011, 2, 'e', '1', 0, 0, 0, 0, 0, 0, 0, 7, 0, 3, 'a', '/', 'b', 0, 1, 9);
  }

  @Test
  void reservedFlagsAndQos3AreRefused() throws Exception {
    byte[] b = DatagramCodec.encode(msg(new byte[] {1}));
    byte[] q3 = Arrays.copyOf(b, b.length);
    q3[3] = 0b110;
    assertThatThrownBy(() -> DatagramCodec.decode(q3, 0, q3.length))
        .isInstanceOf(DatagramException.class);
    byte[] r = Arrays.copyOf(b, b.length);
    r[3] = (byte) 0x80;
    assertThatThrownBy(() -> DatagramCodec.decode(r, 0, r.length))
        .isInstanceOf(DatagramException.class);
  }

  private static EdgeMessage msg(byte[] payload) {
    return new EdgeMessage("edge-1", 1, "t/x", payload, 0, false);
  }
}
