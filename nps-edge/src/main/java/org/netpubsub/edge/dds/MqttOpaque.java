package org.netpubsub.edge.dds;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * MQTT messages for DDS readers (docs/overlay-dds.md, "Mixed MQTT/DDS sites"): a DDS topic of the
 * one fixed type {@code module netpubsub { struct MqttMessage { sequence<octet> payload; }; };}
 * (final, keyless) named like an MQTT topic receives that topic's messages, each payload as the
 * octet sequence, and a DDS writer of it on such a topic publishes its samples' payloads there
 * ({@link #payload}). The names are the same on both sides; what is not a usable MQTT topic name is
 * refused ({@link #refusal}). Pure.
 */
public final class MqttOpaque {
  /** The DDS type name of the opaque type. */
  public static final String TYPE_NAME = "netpubsub::MqttMessage";

  /** The longest topic name, in UTF-8 bytes (the overlay's limit for any topic). */
  public static final int MAX_TOPIC_BYTES = 1024;

  private MqttOpaque() {}

  /**
   * Why a DDS topic name of the opaque type cannot be an MQTT topic name (it is one as it stands
   * otherwise), or empty when it can.
   */
  public static Optional<String> refusal(String ddsTopic) {
    if (ddsTopic.isEmpty()) {
      return Optional.of("empty");
    }
    if (ddsTopic.indexOf('+') >= 0 || ddsTopic.indexOf('#') >= 0) {
      return Optional.of("'+' and '#' are MQTT wildcards");
    }
    if (ddsTopic.startsWith("$")) {
      return Optional.of("topics starting with '$' are the MQTT broker's own");
    }
    if (ddsTopic.startsWith("dds/")) {
      return Optional.of("'dds/' starts the overlay's names of DDS topics");
    }
    if (ddsTopic.indexOf('\0') >= 0) {
      return Optional.of("NUL is not allowed in MQTT topics");
    }
    if (ddsTopic.getBytes(StandardCharsets.UTF_8).length > MAX_TOPIC_BYTES) {
      return Optional.of("longer than " + MAX_TOPIC_BYTES + " bytes");
    }
    return Optional.empty();
  }

  /**
   * A sample of the opaque type carrying {@code payload}, as a DDS reader receives it: the
   * encapsulation header of little-endian XCDR1 ({@code 00 01}, options 0), the sequence's length
   * as a little-endian u32, the bytes (no padding: none is needed after octets, as Cyclone's own
   * serializer writes it).
   */
  public static byte[] cdr(byte[] payload) {
    return ByteBuffer.allocate(8 + payload.length)
        .order(ByteOrder.LITTLE_ENDIAN)
        .put(new byte[] {0, 1, 0, 0})
        .putInt(payload.length)
        .put(payload)
        .array();
  }

  /**
   * The payload of a sample of the opaque type, as its CDR bytes (encapsulation header included)
   * carry it; the inverse of {@link #cdr}. A final struct of one octet sequence is the same in
   * XCDR1 and XCDR2, so plain CDR of either version and either byte order is taken ({@code 00 00},
   * {@code 00 01}, {@code 00 10}, {@code 00 11}); at most 3 bytes of alignment padding may follow
   * the octets. Anything else is refused with {@link IllegalArgumentException} naming what is
   * wrong.
   */
  public static byte[] payload(byte[] cdr) {
    if (cdr.length < 8) {
      throw new IllegalArgumentException(
          "shorter than the encapsulation header and the sequence length (" + cdr.length + " B)");
    }
    int kind = ((cdr[0] & 0xFF) << 8) | (cdr[1] & 0xFF);
    if (kind != 0x0000 && kind != 0x0001 && kind != 0x0010 && kind != 0x0011) {
      throw new IllegalArgumentException(
          String.format("encapsulation 0x%04x is no plain CDR of a final type", kind));
    }
    ByteOrder order = (kind & 1) == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
    long n = Integer.toUnsignedLong(ByteBuffer.wrap(cdr, 4, 4).order(order).getInt());
    if (n > cdr.length - 8) {
      throw new IllegalArgumentException(
          "the sequence's length " + n + " exceeds the " + (cdr.length - 8) + " bytes after it");
    }
    if (cdr.length - 8 - n > 3) {
      throw new IllegalArgumentException(
          (cdr.length - 8 - n) + " bytes after the sequence (at most 3 of padding)");
    }
    return java.util.Arrays.copyOfRange(cdr, 8, 8 + (int) n);
  }
}
