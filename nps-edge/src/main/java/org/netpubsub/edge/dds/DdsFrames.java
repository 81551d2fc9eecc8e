package org.netpubsub.edge.dds;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The frames between the edge broker and its DDS child process (nps_dds_bridge.py): a u32
 * big-endian length, a kind byte, a body. Samples are {@code u16 key length, key, u8 flags (1 =
 * reliable), CDR bytes} both ways; endpoints are JSON. Pure; malformed input is refused with {@link
 * IllegalArgumentException}.
 */
public final class DdsFrames {
  public static final byte READY = 'R';
  public static final byte FAILED = 'X';
  public static final byte ENDPOINT = 'E';
  public static final byte SAMPLE = 'M';
  public static final byte DROPPED = 'D';

  /** The largest frame either side accepts (a UDP datagram carries far less). */
  public static final int MAX_FRAME = 1 << 20;

  private static final ObjectMapper JSON = new ObjectMapper();

  private DdsFrames() {}

  /** A sample as the CDR bytes its writer serialized (encapsulation header included). */
  public record Sample(String key, boolean reliable, byte[] cdr) {}

  /**
   * An overlay key gained ({@code present}) or lost its last local writer ({@code role} "pub") or
   * reader ("sub"), with the QoS of its endpoints: reliability, durability, the shortest deadline
   * (null: none) and history depth (-1: keep all).
   */
  public record Endpoint(
      String role,
      boolean present,
      String key,
      boolean reliable,
      String durability,
      Long deadlineMillis,
      int depth) {}

  public static byte[] sample(Sample s) {
    byte[] k = s.key().getBytes(StandardCharsets.UTF_8);
    if (k.length > 0xFFFF) {
      throw new IllegalArgumentException("key longer than 65535 bytes");
    }
    ByteBuffer b = ByteBuffer.allocate(4 + 1 + 2 + k.length + 1 + s.cdr().length);
    b.putInt(b.capacity() - 4).put(SAMPLE).putShort((short) k.length).put(k);
    b.put((byte) (s.reliable() ? 1 : 0)).put(s.cdr());
    return b.array();
  }

  /** A sample's body (after the kind byte). */
  public static Sample sample(byte[] body) {
    if (body.length < 3) {
      throw new IllegalArgumentException("sample frame too short");
    }
    int n = ((body[0] & 0xFF) << 8) | (body[1] & 0xFF);
    if (body.length < 2 + n + 1) {
      throw new IllegalArgumentException("sample frame shorter than its key");
    }
    String key = new String(body, 2, n, StandardCharsets.UTF_8);
    byte[] cdr = java.util.Arrays.copyOfRange(body, 3 + n, body.length);
    return new Sample(key, (body[2 + n] & 1) != 0, cdr);
  }

  /** An endpoint frame's JSON body. */
  public static Endpoint endpoint(byte[] body) {
    JsonNode o;
    try {
      o = JSON.readTree(body);
    } catch (IOException e) {
      throw new IllegalArgumentException("endpoint frame is not JSON");
    }
    if (o == null || !o.isObject()) {
      throw new IllegalArgumentException("endpoint frame is not a JSON object");
    }
    String role = text(o, "role");
    if (!role.equals("pub") && !role.equals("sub")) {
      throw new IllegalArgumentException("'role' must be pub or sub");
    }
    JsonNode deadline = o.path("deadline_ms");
    return new Endpoint(
        role,
        o.path("present").asBoolean(false),
        text(o, "key"),
        o.path("reliable").asBoolean(false),
        o.path("durability").asText("volatile"),
        deadline.isNumber() ? deadline.asLong() : null,
        o.path("depth").asInt(1));
  }

  private static String text(JsonNode o, String field) {
    JsonNode v = o.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("'" + field + "' must be a string");
    }
    return v.asText();
  }
}
