package org.netpubsub.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaWriter;

/**
 * A controller that implements the pub/sub REST contract of docs/pubsub.md without switches, on the
 * JDK HttpServer: for client tests. It checks requests as the real one does (JSON, host, filter
 * against the schema, port), keeps the registrations, and can be told to answer 409 for hosts not
 * yet announced, 429 a number of times, or any error once.
 */
public final class StubController implements Closeable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Schema schema;
  private final int indexLength;
  private final HttpServer server;
  private final List<String> requests = new ArrayList<>();
  private final Map<String, JsonNode> advertisements = new ConcurrentHashMap<>();
  private final Map<String, JsonNode> subscriptions = new ConcurrentHashMap<>();
  private final Map<String, JsonNode> stats = new ConcurrentHashMap<>();
  private final Set<String> knownHosts = ConcurrentHashMap.newKeySet();
  private final AtomicInteger nextId = new AtomicInteger(1);
  private final Deque<int[]> rateLimits = new ArrayDeque<>();
  private final Deque<Object[]> failures = new ArrayDeque<>();
  private volatile boolean requireKnownHosts;
  private volatile String retryAfter = "0";
  private volatile long indexVersion = 1;
  private final List<String> versionsSent = new ArrayList<>();

  private StubController(Schema schema, int indexLength) throws IOException {
    this.schema = schema;
    this.indexLength = indexLength;
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    server.createContext("/", this::handle);
  }

  /** Serves on a free loopback port. */
  public static StubController start(Schema schema, int indexLength) throws IOException {
    StubController s = new StubController(schema, indexLength);
    s.server.start();
    return s;
  }

  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** From now on, a host must be {@link #markKnown known} or the answer is 409. */
  public void requireKnownHosts() {
    requireKnownHosts = true;
  }

  public void markKnown(String host) {
    knownHosts.add(host);
  }

  /** The next {@code n} requests are answered 429 with {@code Retry-After: seconds}. */
  public synchronized void rateLimitNext(int n, String seconds) {
    retryAfter = seconds;
    for (int i = 0; i < n; i++) {
      rateLimits.add(new int[] {429});
    }
  }

  /** The next request is answered {@code status} {"error":{"code","message": reason}}. */
  public synchronized void failNext(int status, String reason) {
    failures.add(new Object[] {status, reason});
  }

  /**
   * A layout switch: from now on the index has this version, and a request made with another one is
   * answered 409 with the current version, as the controller answers it.
   */
  public void switchIndex(long version) {
    indexVersion = version;
  }

  /** The Nps-Index-Version header of every request, in order ("" when absent). */
  public synchronized List<String> versionsSent() {
    return List.copyOf(versionsSent);
  }

  /** "METHOD path" of every request, in order. */
  public synchronized List<String> requests() {
    return List.copyOf(requests);
  }

  /** Live advertisements by id: the request bodies. */
  public Map<String, JsonNode> advertisements() {
    return Map.copyOf(advertisements);
  }

  /** The last stats report per subscription id. */
  public Map<String, JsonNode> stats() {
    return stats;
  }

  public Map<String, JsonNode> subscriptions() {
    return Map.copyOf(subscriptions);
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(HttpExchange ex) throws IOException {
    int status;
    JsonNode body;
    String retry = null;
    String sent = ex.getRequestHeaders().getFirst("Nps-Index-Version");
    synchronized (this) {
      requests.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
      versionsSent.add(sent == null ? "" : sent);
    }
    long current = indexVersion;
    Object[] failure;
    boolean limited;
    synchronized (this) {
      limited = rateLimits.poll() != null;
      failure = limited ? null : failures.poll();
    }
    try {
      if (limited) {
        status = 429;
        body = error("too many requests from this host");
        retry = retryAfter;
      } else if (sent != null
          && !ex.getRequestURI().getPath().equals("/v1/pubsub")
          && Long.parseLong(sent) != current) {
        status = 409;
        body = error("index version " + sent + " is stale: the current is " + current);
        ex.getResponseHeaders().set("Nps-Index-Version", Long.toString(current));
      } else if (failure != null) {
        status = (Integer) failure[0];
        body = error((String) failure[1]);
      } else {
        Object[] r = route(ex);
        status = (Integer) r[0];
        body = (JsonNode) r[1];
      }
    } catch (InvalidInputException e) {
      status = 400;
      body = error(e.render());
    } catch (IllegalArgumentException e) {
      status = 400;
      body = error(e.getMessage());
    }
    byte[] bytes = JSON.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    if (retry != null) {
      ex.getResponseHeaders().set("Retry-After", retry);
    }
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private Object[] route(HttpExchange ex) throws IOException {
    String method = ex.getRequestMethod();
    String path = ex.getRequestURI().getPath();
    if (method.equals("GET") && path.equals("/v1/pubsub")) {
      return ok(200, config());
    }
    if (method.equals("POST") && path.equals("/v1/advertisements")) {
      return register(ex, "a-", advertisements, false);
    }
    if (method.equals("POST") && path.equals("/v1/subscriptions")) {
      return register(ex, "s-", subscriptions, true);
    }
    if (method.equals("POST") && path.startsWith("/v1/subscriptions/") && path.endsWith("/stats")) {
      String id = path.substring("/v1/subscriptions/".length(), path.length() - "/stats".length());
      if (!subscriptions.containsKey(id)) {
        return new Object[] {404, error("no subscription " + id)};
      }
      JsonNode n = JSON.readTree(ex.getRequestBody().readAllBytes());
      stats.put(id, n);
      return ok(200, n);
    }
    if (method.equals("DELETE") && path.startsWith("/v1/advertisements/")) {
      return remove(path.substring("/v1/advertisements/".length()), advertisements);
    }
    if (method.equals("DELETE") && path.startsWith("/v1/subscriptions/")) {
      return remove(path.substring("/v1/subscriptions/".length()), subscriptions);
    }
    return new Object[] {404, error("no such resource: " + path)};
  }

  private ObjectNode config() {
    ObjectNode o = JSON.createObjectNode();
    o.put("schema", SchemaWriter.toYaml(schema));
    o.put("schema_id", String.format("%08x", schema.id()));
    ObjectNode index = o.putObject("index");
    index.put("version", indexVersion);
    index.put("length", indexLength);
    var dims = index.putArray("dimensions");
    for (Attribute a : schema.indexDimensions()) {
      dims.add(a.name());
    }
    o.put("event_port", indexVersion % 2 == 1 ? 7073 : 7074); // alternating, as the controller
    return o;
  }

  private Object[] register(
      HttpExchange ex, String prefix, Map<String, JsonNode> into, boolean subscription)
      throws IOException {
    JsonNode n;
    try {
      n = JSON.readTree(new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      return new Object[] {400, error("malformed JSON: " + e.getOriginalMessage())};
    }
    if (n == null
        || !n.isObject()
        || !n.path("host").isTextual()
        || !n.path("filter").isTextual()) {
      return new Object[] {400, error("expected {\"host\", \"filter\"}")};
    }
    String host = n.get("host").asText();
    Ipv6Text.parse(host);
    FilterParser.parse(schema, n.get("filter").asText());
    int port = n.path("port").asInt(7073);
    if (subscription && (port < 1 || port > 65535)) {
      return new Object[] {400, error("bad port " + port)};
    }
    if (requireKnownHosts && !knownHosts.contains(host)) {
      return new Object[] {409, error("host " + host + " is not known")};
    }
    String id = prefix + nextId.getAndIncrement();
    into.put(id, n);
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("id", id);
    o.put("host", host);
    o.put("filter", n.get("filter").asText());
    if (subscription) {
      o.put("port", port);
    }
    o.put("cells", 3);
    o.put("flow_changes", 5);
    o.put("switches", 2);
    o.put("response_ms", 1.5);
    return ok(201, JSON.valueToTree(o));
  }

  private Object[] remove(String id, Map<String, JsonNode> from) {
    if (from.remove(id) == null) {
      return new Object[] {404, error("no such id " + id)};
    }
    ObjectNode o = JSON.createObjectNode().put("id", id);
    o.put("flow_changes", 4).put("switches", 2).put("response_ms", 0.5);
    return ok(200, o);
  }

  private static Object[] ok(int status, JsonNode body) {
    return new Object[] {status, body};
  }

  private static ObjectNode error(String reason) {
    ObjectNode root = JSON.createObjectNode();
    root.putObject("error").put("code", "bad_request").put("message", reason);
    return root;
  }
}
