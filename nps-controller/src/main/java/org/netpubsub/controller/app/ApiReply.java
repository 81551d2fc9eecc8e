package org.netpubsub.controller.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;

/** One REST answer: status, JSON body, extra headers (e.g. Retry-After). */
record ApiReply(int status, JsonNode body, Map<String, String> headers) {
  static final ObjectMapper JSON = new ObjectMapper();

  ApiReply(int status, JsonNode body) {
    this(status, body, Map.of());
  }

  static ApiReply error(int status, String message) {
    return new ApiReply(status, JSON.createObjectNode().put("error", message));
  }

  static ApiReply notAllowed() {
    return error(405, "method not allowed");
  }
}
