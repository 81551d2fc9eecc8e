package org.netpubsub.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.http.Context;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One request as a route sees it: path parameters, query parameters, headers and the JSON body,
 * which is read at most {@code maxBody} bytes far (413 beyond).
 */
public final class Request {
  private final Context ctx;
  private final int maxBody;

  Request(Context ctx, int maxBody) {
    this.ctx = ctx;
    this.maxBody = maxBody;
  }

  public String method() {
    return ctx.method().name();
  }

  public String path() {
    return ctx.path();
  }

  /** A path parameter, URL-decoded. */
  public String pathParam(String name) {
    return ctx.pathParam(name);
  }

  /** A query parameter, or null; 400 if it is given more than once. */
  public String query(String name) {
    List<String> v = ctx.queryParams(name);
    if (v.size() > 1) {
      throw ApiError.field(name, "parameter '" + name + "' given twice");
    }
    return v.isEmpty() ? null : v.get(0);
  }

  /** Every query parameter once; 400 if one is given more than once. */
  public Map<String, String> queryParams() {
    Map<String, String> out = new LinkedHashMap<>();
    ctx.queryParamMap().keySet().forEach(k -> out.put(k, query(k)));
    return out;
  }

  /** Who sent the request (401 if nobody authenticated it: a route outside {@code /v1/}). */
  public Principal principal() {
    Principal p = ctx.attribute(Authentication.ATTRIBUTE);
    if (p == null) {
      throw new ApiError(401, "not authenticated");
    }
    return p;
  }

  /** The address the connection comes from (not a header a client could write). */
  public String remoteAddress() {
    return ctx.req().getRemoteAddr();
  }

  public String header(String name) {
    return ctx.header(name);
  }

  /** The body as a JSON object: 413 over the limit, 400 if malformed or not an object. */
  public JsonNode json() throws IOException {
    byte[] body;
    try (InputStream in = ctx.bodyInputStream()) {
      body = in.readNBytes(maxBody + 1);
    }
    if (body.length > maxBody) {
      throw tooLarge(maxBody);
    }
    JsonNode n;
    try {
      n = Json.MAPPER.readTree(body);
    } catch (JsonProcessingException e) {
      throw new ApiError(400, "malformed JSON: " + e.getOriginalMessage());
    }
    if (n == null || !n.isObject()) {
      throw new ApiError(400, "expected a JSON object");
    }
    return n;
  }

  static ApiError tooLarge(int maxBody) {
    return new ApiError(413, "request body over " + maxBody + " bytes");
  }
}
