package org.netpubsub.edge.overlay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.netpubsub.edge.link.DatagramAuth;

/**
 * The overlay's datagram keys as the key znode ({@link ZnodePaths#KEYS}) holds them
 * (docs/security.md): the {@code current} key signs; a {@code next} key, during a rotation, is
 * accepted before anyone signs with it; the {@code previous} key is accepted for {@code grace}
 * after a party sees it demoted. JSON, strict, snake_case:
 *
 * <pre>{"current":{"id":2,"key":"HEX"},"next":{...},"previous":{...},"grace_ms":60000}</pre>
 *
 * <p>Errors never quote the znode's text: it holds keys. Pure.
 */
public record DatagramKeys(Key current, Key next, Key previous, Duration grace) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One key and its id (ids grow by one per rotation; they name keys in logs, keys never). */
  public record Key(long id, byte[] key) {
    public Key {
      if (id < 1) {
        throw new IllegalArgumentException("key id must be at least 1");
      }
      if (key.length < DatagramAuth.MIN_KEY) {
        throw new IllegalArgumentException(
            "key " + id + ": " + key.length + " bytes, at least " + DatagramAuth.MIN_KEY);
      }
      key = key.clone();
    }

    @Override
    public byte[] key() {
      return key.clone();
    }

    @Override
    public String toString() {
      return "Key[" + id + "]";
    }
  }

  public DatagramKeys {
    if (current == null) {
      throw new IllegalArgumentException("'current' is required");
    }
    if (grace == null || grace.isNegative()) {
      throw new IllegalArgumentException("'grace_ms' must be at least 0");
    }
    if (next != null && next.id() <= current.id()) {
      throw new IllegalArgumentException("'next' must have a higher id than 'current'");
    }
    if (previous != null && previous.id() >= current.id()) {
      throw new IllegalArgumentException("'previous' must have a lower id than 'current'");
    }
  }

  /** The first key of an overlay. */
  public static DatagramKeys first(byte[] key, Duration grace) {
    return new DatagramKeys(new Key(1, key), null, null, grace);
  }

  /** Rotation, step 1: {@code key} is accepted everywhere, nobody signs with it yet. */
  public DatagramKeys propose(byte[] key) {
    return new DatagramKeys(current, new Key(current.id() + 1, key), previous, grace);
  }

  /** Rotation, step 2: the next key signs, the current one becomes the previous one. */
  public DatagramKeys promote() {
    if (next == null) {
      throw new IllegalStateException("no next key to promote");
    }
    return new DatagramKeys(next, null, current, grace);
  }

  /** The highest key id a party holding these keys accepts. */
  public long highestId() {
    return next != null ? next.id() : current.id();
  }

  public byte[] toJson() {
    ObjectNode o = JSON.createObjectNode();
    o.set("current", key(current));
    if (next != null) {
      o.set("next", key(next));
    }
    if (previous != null) {
      o.set("previous", key(previous));
    }
    o.put("grace_ms", grace.toMillis());
    return o.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Parses the znode; {@link IllegalArgumentException} naming the field, never quoting it. */
  public static DatagramKeys parse(byte[] data) {
    if (data == null || data.length == 0) {
      throw new IllegalArgumentException("empty key znode");
    }
    JsonNode o;
    try {
      o = JSON.readTree(data);
    } catch (IOException e) {
      throw new IllegalArgumentException("the key znode is not JSON"); // its text holds keys
    }
    if (o == null || !o.isObject()) {
      throw new IllegalArgumentException("the key znode is not a JSON object");
    }
    only(o, Set.of("current", "next", "previous", "grace_ms"), "the key znode");
    JsonNode g = o.get("grace_ms");
    if (g == null || !g.canConvertToLong()) {
      throw new IllegalArgumentException("'grace_ms' must be a whole number");
    }
    return new DatagramKeys(
        key(o, "current"), key(o, "next"), key(o, "previous"), Duration.ofMillis(g.asLong()));
  }

  private static ObjectNode key(Key k) {
    ObjectNode o = JSON.createObjectNode();
    o.put("id", k.id());
    o.put("key", HexFormat.of().formatHex(k.key));
    return o;
  }

  private static Key key(JsonNode parent, String field) {
    JsonNode o = parent.get(field);
    if (o == null || o.isNull()) {
      return null;
    }
    if (!o.isObject()) {
      throw new IllegalArgumentException("'" + field + "' must be an object");
    }
    only(o, Set.of("id", "key"), "'" + field + "'");
    JsonNode id = o.get("id");
    JsonNode key = o.get("key");
    if (id == null || !id.canConvertToLong()) {
      throw new IllegalArgumentException("'" + field + ".id' must be a whole number");
    }
    if (key == null || !key.isTextual()) {
      throw new IllegalArgumentException("'" + field + ".key' must be a hex string");
    }
    byte[] bytes;
    try {
      bytes = HexFormat.of().parseHex(key.asText());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + field + ".key' must be a hex string");
    }
    try {
      return new Key(id.asLong(), bytes);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("'" + field + "': " + e.getMessage());
    }
  }

  private static void only(JsonNode o, Set<String> fields, String what) {
    List<String> unknown = new ArrayList<>();
    for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!fields.contains(f)) {
        unknown.add(f);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(what + ": unknown field '" + unknown.get(0) + "'");
    }
  }

  @Override
  public String toString() {
    return "DatagramKeys[current=" + current + ", next=" + next + ", previous=" + previous + "]";
  }
}
