package org.netpubsub.edge.dds;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * MQTT messages for DDS readers (docs/overlay.md, "Mixed MQTT/DDS sites"): a DDS topic of the one
 * fixed type {@code module netpubsub { struct MqttMessage { sequence<octet> payload; }; };} (final,
 * keyless) named like an MQTT topic receives that topic's messages, each payload as the octet
 * sequence. The names are the same on both sides; what is not a usable MQTT topic name is refused
 * ({@link #refusal}). Pure.
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
}
