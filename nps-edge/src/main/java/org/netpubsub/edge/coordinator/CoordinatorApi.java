package org.netpubsub.edge.coordinator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The coordinator's REST API (docs/edge.md), JDK HttpServer and JSON like the controller's: {@code
 * PUT/DELETE /v1/edges/{name}}, {@code GET /v1/edges}, {@code POST /v1/edges/{name}/filters},
 * {@code GET /v1/edges/{name}/changes?after=V[&wait_ms=N]}, {@code GET
 * /v1/routes?topic=T&origin=E[&retain=true]}. Errors are {@code {"error":"..."}} with 400, 404, 405
 * or 413 (body over 64 KiB). One virtual thread per request: long-polls only park.
 */
final class CoordinatorApi implements Closeable {
  static final int MAX_BODY = 64 * 1024;

  /** The longest a change poll may wait (a client asking more gets this). */
  static final Duration MAX_WAIT = Duration.ofSeconds(60);

  private static final ObjectMapper JSON = new ObjectMapper();
  private final CoordinatorService service;
  private final HttpServer server;
  private final ExecutorService workers = Executors.newVirtualThreadPerTaskExecutor();
  private final Duration defaultWait;

  private CoordinatorApi(CoordinatorService service, HttpServer server, Duration defaultWait) {
    this.service = service;
    this.server = server;
    this.defaultWait = defaultWait;
    server.setExecutor(workers);
    server.createContext("/", this::handle);
  }

  static CoordinatorApi start(
      CoordinatorService service, InetSocketAddress address, Duration defaultWait)
      throws IOException {
    CoordinatorApi api = new CoordinatorApi(service, HttpServer.create(address, 64), defaultWait);
    api.server.start();
    return api;
  }

  InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    server.stop(0);
    service.wakeAll();
    workers.shutdownNow();
  }

  private record Reply(int status, JsonNode body) {}

  private static Reply error(int status, String message) {
    return new Reply(status, JSON.createObjectNode().put("error", message));
  }

  private void handle(HttpExchange ex) throws IOException {
    Reply r;
    try {
      r = route(ex);
    } catch (BadRequest e) {
      r = e.reply;
    } catch (NoSuchElementException e) {
      r = error(404, e.getMessage());
    } catch (IllegalArgumentException e) {
      r = error(400, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      r = error(503, "shutting down");
    } catch (RuntimeException e) {
      r = error(500, String.valueOf(e));
    }
    byte[] bytes = JSON.writeValueAsBytes(r.body());
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(r.status(), bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private Reply route(HttpExchange ex) throws IOException, InterruptedException {
    String path = ex.getRequestURI().getRawPath();
    String method = ex.getRequestMethod();
    Map<String, String> query = query(ex.getRequestURI().getRawQuery());
    String[] parts = path.split("/", -1);
    if (path.equals("/v1/edges")) {
      return method.equals("GET") ? new Reply(200, edges()) : error(405, "method not allowed");
    }
    if (path.equals("/v1/exchanges")) {
      return method.equals("GET") ? new Reply(200, exchanges()) : error(405, "method not allowed");
    }
    if (path.equals("/v1/routes")) {
      return method.equals("GET") ? routes(query) : error(405, "method not allowed");
    }
    if (parts.length >= 4 && path.startsWith("/v1/edges/")) {
      String name = URLDecoder.decode(parts[3], StandardCharsets.UTF_8);
      if (parts.length == 4) {
        return switch (method) {
          case "PUT" -> register(name, jsonBody(ex));
          case "DELETE" -> {
            long v = service.leave(name);
            yield new Reply(200, JSON.createObjectNode().put("name", name).put("version", v));
          }
          default -> error(405, "method not allowed");
        };
      }
      if (parts.length == 5 && parts[4].equals("filters")) {
        return method.equals("POST")
            ? filters(name, jsonBody(ex))
            : error(405, "method not allowed");
      }
      if (parts.length == 5 && parts[4].equals("exchanges")) {
        return method.equals("POST")
            ? reportExchanges(name, jsonBody(ex))
            : error(405, "method not allowed");
      }
      if (parts.length == 5 && parts[4].equals("changes")) {
        return method.equals("GET") ? changes(name, query) : error(405, "method not allowed");
      }
    }
    return error(404, "no such resource: " + path);
  }

  private Reply register(String name, JsonNode body) {
    onlyKeys(body, Set.of("address", "port"));
    String address = text(body, "address");
    JsonNode port = body.get("port");
    if (port == null || !port.canConvertToInt() || !port.isIntegralNumber()) {
      throw new IllegalArgumentException("'port' must be an integer");
    }
    Edge e = new Edge(name, address, port.asInt());
    Set<String> filters = service.register(e);
    ObjectNode o = edgeJson(e, filters);
    o.put("version", service.version());
    o.put("mode", service.mode());
    return new Reply(200, o);
  }

  private Reply filters(String name, JsonNode body) {
    onlyKeys(body, Set.of("added", "removed"));
    List<String> added = strings(body, "added");
    List<String> removed = strings(body, "removed");
    CoordinatorService.FilterReply r = service.updateFilters(name, added, removed);
    ObjectNode o = JSON.createObjectNode().put("version", r.version()).put("synced", r.synced());
    r.changed().forEach(o.putArray("changed")::add);
    return new Reply(200, o);
  }

  private Reply changes(String name, Map<String, String> query) throws InterruptedException {
    long after = longParam(query, "after", -1);
    if (after < 0) {
      throw new IllegalArgumentException("'after' must be a version (an integer >= 0)");
    }
    long waitMs = longParam(query, "wait_ms", defaultWait.toMillis());
    if (waitMs < 0) {
      throw new IllegalArgumentException("'wait_ms' must not be negative");
    }
    Duration wait = Duration.ofMillis(Math.min(waitMs, MAX_WAIT.toMillis()));
    CoordinatorState.Changes c = service.changes(name, after, wait);
    ObjectNode o = JSON.createObjectNode().put("version", c.version()).put("flush", c.flush());
    o.put("exchanges", c.exchanges());
    ArrayNode topics = o.putArray("topics");
    c.topics().stream().sorted().forEach(topics::add);
    return new Reply(200, o);
  }

  private Reply routes(Map<String, String> query) {
    for (String k : query.keySet()) {
      if (!Set.of("topic", "origin", "retain").contains(k)) {
        throw new IllegalArgumentException("unknown parameter '" + k + "'");
      }
    }
    String topic = query.get("topic");
    String origin = query.get("origin");
    if (topic == null || origin == null) {
      throw new IllegalArgumentException("'topic' and 'origin' are required");
    }
    String retain = query.getOrDefault("retain", "false");
    if (!retain.equals("true") && !retain.equals("false")) {
      throw new IllegalArgumentException("'retain' must be true or false");
    }
    CoordinatorService.RouteReply r = service.route(topic, origin, retain.equals("true"));
    ObjectNode o = JSON.createObjectNode();
    o.put("topic", r.topic()).put("version", r.version()).put("mode", r.mode());
    ArrayNode targets = o.putArray("targets");
    for (CoordinatorService.Target t : r.targets()) {
      ObjectNode n = targets.addObject();
      if (t.edge() != null) {
        n.put("edge", t.edge());
      }
      n.put("address", t.address().getHostString()).put("port", t.address().getPort());
    }
    return new Reply(200, o);
  }

  private Reply reportExchanges(String name, JsonNode body) {
    onlyKeys(body, Set.of("created", "deleted"));
    List<Exchange> created = new ArrayList<>();
    JsonNode c = body.path("created");
    if (!c.isMissingNode() && !c.isArray()) {
      throw new IllegalArgumentException("'created' must be an array of exchanges");
    }
    for (JsonNode x : c) {
      if (!x.isObject()) {
        throw new IllegalArgumentException("'created' must be an array of exchanges");
      }
      onlyKeys(x, Set.of("name", "type", "durable"));
      JsonNode durable = x.path("durable");
      if (!durable.isMissingNode() && !durable.isBoolean()) {
        throw new IllegalArgumentException("'durable' must be true or false");
      }
      created.add(new Exchange(text(x, "name"), text(x, "type"), durable.asBoolean(false)));
    }
    List<String> deleted = strings(body, "deleted");
    CoordinatorService.FilterReply r = service.updateExchanges(name, created, deleted);
    return new Reply(
        200, JSON.createObjectNode().put("version", r.version()).put("synced", r.synced()));
  }

  private ObjectNode exchanges() {
    ObjectNode o = JSON.createObjectNode().put("version", service.version());
    ArrayNode a = o.putArray("exchanges");
    for (CoordinatorState.MirroredExchange m : service.exchanges()) {
      ObjectNode x = a.addObject();
      x.put("name", m.exchange().name())
          .put("type", m.exchange().type())
          .put("durable", m.exchange().durable());
      ArrayNode at = x.putArray("edges");
      m.edges().stream().sorted().forEach(at::add);
    }
    return o;
  }

  private ObjectNode edges() {
    ObjectNode o = JSON.createObjectNode().put("version", service.version());
    o.put("mode", service.mode());
    ArrayNode a = o.putArray("edges");
    service.snapshot().forEach((e, f) -> a.add(edgeJson(e, f)));
    return o;
  }

  private static ObjectNode edgeJson(Edge e, Set<String> filters) {
    ObjectNode o = JSON.createObjectNode();
    o.put("name", e.name()).put("address", e.address()).put("port", e.port());
    ArrayNode f = o.putArray("filters");
    filters.stream().sorted().forEach(f::add);
    return o;
  }

  private static void onlyKeys(JsonNode body, Set<String> allowed) {
    for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!allowed.contains(k)) {
        throw new IllegalArgumentException("unknown field '" + k + "'; expected " + allowed);
      }
    }
  }

  private static String text(JsonNode body, String key) {
    JsonNode n = body.get(key);
    if (n == null || !n.isTextual()) {
      throw new IllegalArgumentException("'" + key + "' must be a string");
    }
    return n.asText();
  }

  private static List<String> strings(JsonNode body, String key) {
    JsonNode n = body.get(key);
    List<String> out = new ArrayList<>();
    if (n == null) {
      return out;
    }
    if (!n.isArray()) {
      throw new IllegalArgumentException("'" + key + "' must be an array of topic filters");
    }
    for (JsonNode x : n) {
      if (!x.isTextual()) {
        throw new IllegalArgumentException("'" + key + "' must be an array of topic filters");
      }
      out.add(x.asText());
    }
    return out;
  }

  private static long longParam(Map<String, String> query, String key, long missing) {
    String v = query.get(key);
    if (v == null) {
      return missing;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("'" + key + "' must be an integer, not '" + v + "'");
    }
  }

  private static Map<String, String> query(String raw) {
    Map<String, String> out = new HashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String kv : raw.split("&")) {
      int eq = kv.indexOf('=');
      String k = URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8);
      String v = eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
      if (out.put(k, v) != null) {
        throw new IllegalArgumentException("parameter '" + k + "' given twice");
      }
    }
    return out;
  }

  private static JsonNode jsonBody(HttpExchange ex) throws IOException {
    byte[] body;
    try (InputStream in = ex.getRequestBody()) {
      body = in.readNBytes(MAX_BODY + 1);
    }
    if (body.length > MAX_BODY) {
      throw new BadRequest(error(413, "request body over " + MAX_BODY + " bytes"));
    }
    JsonNode n;
    try {
      n = JSON.readTree(new String(body, StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      throw new BadRequest(error(400, "malformed JSON: " + e.getOriginalMessage()));
    }
    if (n == null || !n.isObject()) {
      throw new BadRequest(error(400, "expected a JSON object"));
    }
    return n;
  }

  private static final class BadRequest extends RuntimeException {
    final transient Reply reply;

    BadRequest(Reply reply) {
      super(reply.body().toString(), null, false, false);
      this.reply = reply;
    }
  }
}
