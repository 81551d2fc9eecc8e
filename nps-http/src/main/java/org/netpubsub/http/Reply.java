package org.netpubsub.http;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** One REST answer: status, JSON body, extra headers (e.g. Retry-After). */
public record Reply(int status, JsonNode body, Map<String, String> headers) {
  public Reply(int status, JsonNode body) {
    this(status, body, Map.of());
  }

  public static Reply ok(JsonNode body) {
    return new Reply(200, body);
  }
}
