package org.netpubsub.edge.dds;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link MqttOpaque#payload} (a DDS writer's sample of the opaque type to the MQTT payload) against
 * {@link MqttOpaque#cdr}, its inverse; malformed bodies are refused, never anything else thrown.
 */
class MqttOpaqueProperties {
  @Property
  void unwrapsWhatItWraps(@ForAll @Size(max = 2000) byte[] payload) {
    assertThat(MqttOpaque.payload(MqttOpaque.cdr(payload))).isEqualTo(payload);
  }

  /** XCDR1 or XCDR2, either byte order, up to 3 bytes of padding: the same payload. */
  @Property
  void takesPlainCdrOfEitherVersionAndByteOrder(
      @ForAll @Size(max = 300) byte[] payload,
      @ForAll boolean bigEndian,
      @ForAll boolean xcdr2,
      @ForAll @IntRange(max = 3) int padding) {
    ByteBuffer b =
        ByteBuffer.allocate(8 + payload.length + padding)
            .order(bigEndian ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {0, (byte) ((xcdr2 ? 0x10 : 0) | (bigEndian ? 0 : 1)), 0, (byte) padding});
    b.putInt(payload.length).put(payload);
    assertThat(MqttOpaque.payload(b.array())).isEqualTo(payload);
  }

  /** A sample cut short anywhere is refused (its length then exceeds what follows). */
  @Property
  void everyTruncationIsRefused(
      @ForAll @Size(min = 1, max = 200) byte[] payload, @ForAll @IntRange(min = 1) int cut) {
    byte[] c = MqttOpaque.cdr(payload);
    byte[] shorter = Arrays.copyOf(c, c.length - 1 - cut % c.length);
    assertThatThrownBy(() -> MqttOpaque.payload(shorter))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /**
   * Any bytes: refused, or the octets the header's length names, followed by at most 3 bytes (a
   * naive reading of the same layout); nothing but a refusal is ever thrown.
   */
  @Property
  void anyBytesAreRefusedOrReadAsTheLayoutSays(@ForAll @Size(max = 64) byte[] any) {
    byte[] p;
    try {
      p = MqttOpaque.payload(any);
    } catch (IllegalArgumentException refused) {
      return;
    }
    boolean le = (any[1] & 1) == 1;
    long n = 0;
    for (int i = 0; i < 4; i++) {
      n |= (long) (any[le ? 4 + i : 7 - i] & 0xFF) << (8 * i);
    }
    assertThat(any[0]).isZero();
    assertThat(any[1] & 0xEE).isZero();
    assertThat(p).isEqualTo(Arrays.copyOfRange(any, 8, 8 + (int) n));
    assertThat(any.length - 8 - n).isBetween(0L, 3L);
  }

  @Example
  void malformedBodiesAreRefusedWithTheReason() {
    HexFormat h = HexFormat.of();
    assertThatThrownBy(() -> MqttOpaque.payload(h.parseHex("00010000")))
        .hasMessageContaining("shorter than the encapsulation header");
    assertThatThrownBy(() -> MqttOpaque.payload(h.parseHex("000300000000000000000000")))
        .hasMessageContaining("encapsulation 0x0003"); // PL_CDR: a mutable type
    assertThatThrownBy(() -> MqttOpaque.payload(h.parseHex("001500000400000001000000")))
        .hasMessageContaining("encapsulation 0x0015"); // D_CDR2: an appendable type
    assertThatThrownBy(() -> MqttOpaque.payload(h.parseHex("0001000005000000616263")))
        .hasMessageContaining("length 5 exceeds the 3 bytes");
    assertThatThrownBy(() -> MqttOpaque.payload(h.parseHex("00010000ffffffff616263")))
        .hasMessageContaining("length 4294967295 exceeds");
    assertThatThrownBy(() -> MqttOpaque.payload(h.parseHex("00010000010000006100000000")))
        .hasMessageContaining("4 bytes after the sequence");
  }
}
