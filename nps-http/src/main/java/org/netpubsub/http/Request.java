package org.netpubsub.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
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
  private final org.eclipse.jetty.server.Request req;
  private final String path;
  private final Map<String, String> params;
  private final Principal principal;
  private final int maxBody;
  private org.eclipse.jetty.util.Fields query;

  Request(
      org.eclipse.jetty.server.Request req,
      String path,
      Map<String, String> params,
      Principal principal,
      int maxBody) {
    this.req = req;
    this.path = path;
    this.params = params;
    this.principal = principal;
    this.maxBody = maxBody;
  }

  public String method() {
    return req.getMethod();
  }

  public String path() {
    return path;
  }

  /** A path parameter, URL-decoded. */
  public String pathParam(String name) {
    String v = params.get(name);
    if (v == null) {
      throw new IllegalStateException("no path parameter " + name + " in " + path);
    }
    return v;
  }

  /** A query parameter, or null; 400 if it is given more than once. */
  public String query(String name) {
    List<String> v = query().getValues(name);
    if (v == null) {
      return null;
    }
    if (v.size() > 1) {
      throw ApiError.field(name, "parameter '" + name + "' given twice");
    }
    return v.isEmpty() ? null : v.getFirst();
  }

  /** Every query parameter once; 400 if one is given more than once. */
  public Map<String, String> queryParams() {
    Map<String, String> out = new LinkedHashMap<>();
    query().getNames().forEach(k -> out.put(k, query(k)));
    return out;
  }

  private org.eclipse.jetty.util.Fields query() {
    if (query == null) {
      query = org.eclipse.jetty.server.Request.extractQueryParameters(req);
    }
    return query;
  }

  /** Who sent the request (401 if nobody authenticated it: a route outside {@code /v1/}). */
  public Principal principal() {
    if (principal == null) {
      throw new ApiError(401, "not authenticated");
    }
    return principal;
  }

  /** The address the connection comes from (not a header a client could write). */
  public String remoteAddress() {
    return org.eclipse.jetty.server.Request.getRemoteAddr(req);
  }

  public String header(String name) {
    return req.getHeaders().get(name);
  }

  /** The body as a JSON object: 413 over the limit, 400 if malformed or not an object. */
  public JsonNode json() throws IOException {
    byte[] body;
    try (InputStream in = org.eclipse.jetty.server.Request.asInputStream(req)) {
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
