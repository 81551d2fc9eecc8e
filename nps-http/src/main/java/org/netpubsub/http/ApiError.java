package org.netpubsub.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * A request answered with an error: {@code {"error":{"code","message","field"?}}} and its status.
 * The code is a stable snake_case word for the status (see {@link #codeOf}); the field, when given,
 * names the request field (body key or query parameter) that is wrong.
 */
public final class ApiError extends RuntimeException {
  private final int status;
  private final String field;
  private final transient Map<String, String> headers;

  public ApiError(int status, String message, String field, Map<String, String> headers) {
    super(message, null, false, false);
    this.status = status;
    this.field = field;
    this.headers = Map.copyOf(headers);
  }

  public ApiError(int status, String message) {
    this(status, message, null, Map.of());
  }

  /** 400 naming the field that is wrong. */
  public static ApiError field(String field, String message) {
    return new ApiError(400, message, field, Map.of());
  }

  public int status() {
    return status;
  }

  public String field() {
    return field;
  }

  public Map<String, String> headers() {
    return headers;
  }

  /** The answer: status, the error body, and the extra headers (Allow, Retry-After). */
  public Reply reply() {
    ObjectNode root = Json.MAPPER.createObjectNode();
    ObjectNode e = root.putObject("error");
    e.put("code", codeOf(status));
    e.put("message", String.valueOf(getMessage()));
    if (field != null) {
      e.put("field", field);
    }
    return new Reply(status, root, headers);
  }

  /** The error code of a status: the reason phrase in snake_case. */
  public static String codeOf(int status) {
    return switch (status) {
      case 400 -> "bad_request";
      case 401 -> "unauthorized";
      case 403 -> "forbidden";
      case 404 -> "not_found";
      case 405 -> "method_not_allowed";
      case 409 -> "conflict";
      case 413 -> "payload_too_large";
      case 415 -> "unsupported_media_type";
      case 422 -> "unprocessable_entity";
      case 429 -> "too_many_requests";
      case 500 -> "internal_error";
      case 503 -> "service_unavailable";
      case 504 -> "gateway_timeout";
      default -> status >= 500 ? "server_error" : "client_error";
    };
  }
}
