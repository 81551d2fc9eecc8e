package org.netpubsub.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * One REST answer: status, JSON body, extra headers (e.g. Retry-After). The body is either a tree
 * ({@code body}) or, for an answer cached already serialized ({@link CachedJson}), its UTF-8 bytes
 * ({@code json}; {@code body} is then null).
 */
public record Reply(int status, JsonNode body, Map<String, String> headers, byte[] json) {
  public Reply(int status, JsonNode body, Map<String, String> headers) {
    this(status, body, headers, null);
  }

  public Reply(int status, JsonNode body) {
    this(status, body, Map.of());
  }

  public static Reply ok(JsonNode body) {
    return new Reply(200, body);
  }

  /** 200 with a body serialized already by {@link Json#MAPPER}; the bytes are not copied. */
  public static Reply ok(byte[] json) {
    return new Reply(200, null, Map.of(), json);
  }
}
