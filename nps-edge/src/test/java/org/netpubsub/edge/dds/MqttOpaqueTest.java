package org.netpubsub.edge.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The opaque type's CDR (bytes as Cyclone's Python binding serializes them) and names. */
class MqttOpaqueTest {
  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  @Test
  void encodesAsLittleEndianXcdr1() {
    // MqttMessage(payload=...).serialize() of the cyclonedds binding, for the same payloads
    assertThat(hex(MqttOpaque.cdr(new byte[0]))).isEqualTo("0001000000000000");
    assertThat(hex(MqttOpaque.cdr("a".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo("000100000100000061");
    assertThat(hex(MqttOpaque.cdr("hello".getBytes(StandardCharsets.UTF_8))))
        .isEqualTo("000100000500000068656c6c6f");
    byte[] big = new byte[0x0102];
    big[0x0101] = (byte) 0xff;
    byte[] c = MqttOpaque.cdr(big);
    assertThat(hex(java.util.Arrays.copyOf(c, 8))).isEqualTo("0001000002010000");
    assertThat(c).hasSize(8 + 0x0102);
    assertThat(c[c.length - 1]).isEqualTo((byte) 0xff);
  }

  @Test
  void namesAreTheSameOnBothSidesUnlessMqttCannotTakeThem() {
    assertThat(MqttOpaque.refusal("sensors/t1")).isEmpty();
    assertThat(MqttOpaque.refusal("/a//b/")).isEmpty(); // empty levels are MQTT topics too
    assertThat(MqttOpaque.refusal("")).contains("empty");
    assertThat(MqttOpaque.refusal("a/+/b")).contains("'+' and '#' are MQTT wildcards");
    assertThat(MqttOpaque.refusal("a/#")).contains("'+' and '#' are MQTT wildcards");
    assertThat(MqttOpaque.refusal("$SYS/x")).get().asString().contains("'$'");
    assertThat(MqttOpaque.refusal("dds/x")).get().asString().contains("'dds/'");
    assertThat(MqttOpaque.refusal("a\0b")).get().asString().contains("NUL");
    assertThat(MqttOpaque.refusal("x".repeat(1025))).contains("longer than 1024 bytes");
    assertThat(MqttOpaque.refusal("x".repeat(1024))).isEmpty();
  }
}
