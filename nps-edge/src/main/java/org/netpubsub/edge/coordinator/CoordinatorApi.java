package org.netpubsub.edge.coordinator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import org.netpubsub.http.ApiError;
import org.netpubsub.http.Authenticator;
import org.netpubsub.http.Fields;
import org.netpubsub.http.HttpMetrics;
import org.netpubsub.http.Principal;
import org.netpubsub.http.Reply;
import org.netpubsub.http.Request;
import org.netpubsub.http.RestServer;
import org.netpubsub.http.ServerTls;

/**
 * The coordinator's REST API (docs/edge.md) on the shared HTTP layer (nps-http,
 * docs/operations.md): {@code PUT/DELETE /v1/edges/{name}}, {@code GET /v1/edges}, {@code POST
 * /v1/edges/{name}/filters}, {@code GET /v1/edges/{name}/changes?after=V[&wait_ms=N]}, {@code GET
 * /v1/routes?topic=T&origin=E[&retain=true]}, {@code GET /v1/edges/{name}/keys[?own=true]} (the
 * datagram keys, or the edge's own and its senders' keys, docs/security-datagrams.md), health,
 * metrics and the OpenAPI document. Errors are {@code {"error":{"code","message","field"?}}} with
 * 400, 404, 405 or 413 (body over 64 KiB). A change poll holds one of Jetty's threads while it
 * waits (at most {@link #MAX_WAIT}).
 */
final class CoordinatorApi implements Closeable {
  static final int MAX_BODY = 64 * 1024;

  /** Filters in one request at most by default ({@link CoordinatorCaps}: 413 with the reason). */
  static final int MAX_FILTERS_PER_REQUEST = CoordinatorCaps.DEFAULT.filtersPerRequest();

  /** The longest a change poll may wait (a client asking more gets this). */
  static final Duration MAX_WAIT = Duration.ofSeconds(60);

  private static final ObjectMapper JSON = new ObjectMapper();
  private final CoordinatorService service;
  private final CoordinatorCaps caps;
  private final Duration defaultWait;
  private final Counter routeLookups;
  private final ServedKeys keys; // null: this coordinator hands out no datagram keys
  private final Counter keysServed;
  private final Revocations revoked; // keeps revoked edges out (none if no file)
  private final AgentKeyAnswers agentKeys = new AgentKeyAnswers();
  private final Counter agentKeysServed;
  private RestServer server;

  private CoordinatorApi(
      CoordinatorService service,
      CoordinatorCaps caps,
      Duration defaultWait,
      PrometheusMeterRegistry metrics,
      ServedKeys keys,
      Revocations revoked) {
    this.service = service;
    this.caps = caps;
    this.defaultWait = defaultWait;
    this.keys = keys;
    this.revoked = revoked;
    this.agentKeysServed =
        Counter.builder("nps.coordinator.agent.keys.served")
            .description("GET /v1/edges/{name}/keys?own=true answered with an agent's own keys")
            .register(metrics);
    if (revoked.enabled()) {
      FunctionCounter.builder(
              "nps.coordinator.revoked.file.invalid", revoked, Revocations::invalidReads)
          .description("reads of the revoked edges file that failed; the list held was kept")
          .register(metrics);
      FunctionCounter.builder("nps.coordinator.revoked.removed", revoked, Revocations::removed)
          .description("registered edges removed from routing because they were revoked")
          .register(metrics);
    }
    if (revoked.rotates()) {
      FunctionCounter.builder("nps.coordinator.key.rotations", revoked, Revocations::rotations)
          .description("rotations of the deployment keys because an edge was revoked")
          .register(metrics);
      FunctionCounter.builder(
              "nps.coordinator.key.rotation.failures", revoked, Revocations::rotationFailures)
          .description("rotations or drops of old keys that failed; tried again at the next read")
          .register(metrics);
    }
    this.keysServed =
        Counter.builder("nps.coordinator.keys.served")
            .description("GET /v1/edges/{name}/keys answered with the datagram keys")
            .register(metrics);
    if (keys != null) {
      FunctionCounter.builder("nps.coordinator.key.file.invalid", keys, ServedKeys::invalidReads)
          .description("reads of the datagram key file that failed; the keys held were kept")
          .register(metrics);
    }
    this.routeLookups =
        Counter.builder("nps.coordinator.route.lookups")
            .description("GET /v1/routes answered")
            .register(metrics);
    Gauge.builder("nps.coordinator.edges", service, s -> s.snapshot().size())
        .description("edges registered")
        .register(metrics);
    Gauge.builder(
            "nps.coordinator.filters",
            service,
            s -> s.snapshot().values().stream().mapToInt(Set::size).sum())
        .description("topic filters reported, over every edge")
        .register(metrics);
    Gauge.builder("nps.coordinator.version", service, CoordinatorService::version)
        .description("the routing state's version (one more per change)")
        .register(metrics);
  }

  /** Serves on {@code address}; {@link org.netpubsub.http.PortInUseException} if it is taken. */
  static CoordinatorApi start(
      CoordinatorService service, InetSocketAddress address, Duration defaultWait)
      throws IOException {
    return start(
        service,
        address,
        defaultWait,
        null,
        null,
        null,
        new Revocations(null, service, Revocations.SWEEP, null),
        CoordinatorCaps.DEFAULT);
  }

  /**
   * The same, authenticating requests against {@code auth} (null: none, docs/security.md), over
   * {@code tls} (null: plain HTTP), handing out {@code keys} (null: none) to edges not in {@code
   * revoked}, whose registrations and reports it refuses, within {@code caps}.
   */
  static CoordinatorApi start(
      CoordinatorService service,
      InetSocketAddress address,
      Duration defaultWait,
      Authenticator auth,
      ServerTls tls,
      ServedKeys keys,
      Revocations revoked,
      CoordinatorCaps caps)
      throws IOException {
    PrometheusMeterRegistry metrics = HttpMetrics.newRegistry();
    CoordinatorApi api = new CoordinatorApi(service, caps, defaultWait, metrics, keys, revoked);
    api.server =
        RestServer.builder("coordinator", metrics)
            .address(address)
            .maxBody(MAX_BODY)
            .auth(auth)
            .tls(tls)
            // a change poll waits up to MAX_WAIT without a byte on the wire
            .idleTimeout(MAX_WAIT.plusSeconds(30))
            .virtualThreads(true) // every edge keeps a change poll waiting
            .openApi("coordinator-openapi.json")
            .ready("database", () -> service.version() >= 0)
            .error(NoSuchElementException.class, e -> new ApiError(404, e.getMessage()))
            .error(CoordinatorService.CapReached.class, e -> new ApiError(429, e.getMessage()))
            .error(
                InterruptedException.class,
                e -> {
                  Thread.currentThread().interrupt();
                  return new ApiError(503, "shutting down");
                })
            .route("GET", "/v1/edges", r -> Reply.ok(api.edges()))
            .route("GET", "/v1/exchanges", r -> Reply.ok(api.exchanges()))
            .route("GET", "/v1/routes", api::routes)
            .route("PUT", "/v1/edges/{name}", r -> api.register(api.live(r, "register"), r.json()))
            .route("DELETE", "/v1/edges/{name}", r -> api.leave(edge(r)))
            .route(
                "POST",
                "/v1/edges/{name}/filters",
                r -> api.filters(api.live(r, "report filters"), r.json()))
            .route(
                "POST",
                "/v1/edges/{name}/exchanges",
                r -> api.reportExchanges(api.live(r, "report exchanges"), r.json()))
            .route("GET", "/v1/edges/{name}/changes", api::changes)
            .route("GET", "/v1/edges/{name}/keys", api::keys)
            .start();
    return api;
  }

  InetSocketAddress address() {
    return server.address();
  }

  /** The routes served (the OpenAPI document must list the same). */
  List<String> routes() {
    return server.routes();
  }

  @Override
  public void close() {
    revoked.close();
    server.close();
    service.wakeAll();
  }

  /** The edge named in the path, if the principal may act as it (403 otherwise). */
  private static String edge(Request r) {
    String name = r.pathParam("name");
    Principal p = r.principal();
    if (!p.mayActAsEdge(name)) {
      throw p.forbidden("act as edge '" + name + "'");
    }
    return name;
  }

  /** {@link #edge}, and 403 if the edge is revoked: it may not {@code what} (register, report). */
  private String live(Request r, String what) {
    String name = edge(r);
    revoked.refuse(name, r.principal(), what);
    return name;
  }

  private Reply leave(String name) {
    long v = service.leave(name);
    return Reply.ok(JSON.createObjectNode().put("name", name).put("version", v));
  }

  private Reply register(String name, JsonNode body) {
    Fields.onlyKeys(body, Set.of("address", "port"));
    String address = text(body, "address");
    JsonNode port = body.get("port");
    if (port == null || !port.canConvertToInt() || !port.isIntegralNumber()) {
      throw ApiError.field("port", "'port' must be an integer");
    }
    Edge e = new Edge(name, address, port.asInt());
    // the edge cap is checked by the service inside the request's transaction (CapReached: 429)
    Set<String> filters = service.register(e);
    ObjectNode o = edgeJson(e, filters);
    o.put("version", service.version());
    o.put("mode", service.mode());
    return Reply.ok(o);
  }

  private Reply filters(String name, JsonNode body) {
    Fields.onlyKeys(body, Set.of("added", "removed"));
    List<String> added = Fields.strings(body, "added", "topic filters");
    List<String> removed = Fields.strings(body, "removed", "topic filters");
    if (added.size() + removed.size() > caps.filtersPerRequest()) {
      throw new ApiError(
          413,
          (added.size() + removed.size())
              + " filters in one request; the limit is "
              + caps.filtersPerRequest());
    }
    // the per-edge cap is checked by the service inside the request's transaction (429)
    CoordinatorService.FilterReply r = service.updateFilters(name, added, removed);
    ObjectNode o = JSON.createObjectNode().put("version", r.version()).put("synced", r.synced());
    r.changed().forEach(o.putArray("changed")::add);
    return Reply.ok(o);
  }

  /**
   * The datagram keys, to a principal that may act as the edge (an agent fetching them before its
   * first datagram, then polling for rotations) and the revoked edges; never cached on the way.
   * With {@code own=true}, the edge's own key, its senders' and the revoked edges instead ({@link
   * AgentKeyAnswers}). A revoked edge gets neither (403): it would learn keys it could sign with.
   */
  private Reply keys(Request req) {
    String name = edge(req);
    Map<String, String> query = req.queryParams();
    for (String k : query.keySet()) {
      if (!k.equals("own")) {
        throw ApiError.field(k, "unknown parameter '" + k + "'");
      }
    }
    String own = query.getOrDefault("own", "false");
    if (!own.equals("true") && !own.equals("false")) {
      throw ApiError.field("own", "'own' must be true or false");
    }
    if (keys == null) {
      throw new ApiError(
          404, "this coordinator hands out no datagram keys (start it with --datagram-key)");
    }
    Set<String> revokedNow = revoked.now();
    if (revokedNow.contains(name)) {
      throw req.principal().forbidden("receive keys for edge '" + name + "': it is revoked");
    }
    if (own.equals("true")) {
      List<String> registered = service.snapshot().keySet().stream().map(Edge::name).toList();
      ObjectNode a = agentKeys.answer(name, keys.keys(), registered, revokedNow);
      agentKeysServed.increment();
      return new Reply(200, a, Map.of("Cache-Control", "no-store"));
    }
    ObjectNode o = JSON.createObjectNode();
    ArrayNode a = o.putArray("keys");
    keys.keys().forEach(k -> a.add(HexFormat.of().formatHex(k)));
    // agents holding the deployment keys refuse these names too: one file here, none per host
    ArrayNode r = o.putArray("revoked");
    new java.util.TreeSet<>(revokedNow).forEach(r::add);
    keysServed.increment();
    return new Reply(200, o, Map.of("Cache-Control", "no-store"));
  }

  private Reply changes(Request req) throws InterruptedException {
    String name = edge(req); // a poll acknowledges changes: only the edge itself may poll
    Map<String, String> query = req.queryParams();
    long after = longParam(query, "after", -1);
    if (after < 0) {
      throw ApiError.field("after", "'after' must be a version (an integer >= 0)");
    }
    long waitMs = longParam(query, "wait_ms", defaultWait.toMillis());
    if (waitMs < 0) {
      throw ApiError.field("wait_ms", "'wait_ms' must not be negative");
    }
    Duration wait = Duration.ofMillis(Math.min(waitMs, MAX_WAIT.toMillis()));
    CoordinatorState.Changes c = service.changes(name, after, wait);
    ObjectNode o = JSON.createObjectNode().put("version", c.version()).put("flush", c.flush());
    o.put("exchanges", c.exchanges());
    ArrayNode topics = o.putArray("topics");
    c.topics().stream().sorted().forEach(topics::add);
    return Reply.ok(o);
  }

  private Reply routes(Request req) {
    Map<String, String> query = req.queryParams();
    for (String k : query.keySet()) {
      if (!Set.of("topic", "origin", "retain").contains(k)) {
        throw ApiError.field(k, "unknown parameter '" + k + "'");
      }
    }
    String topic = query.get("topic");
    String origin = query.get("origin");
    if (topic == null || origin == null) {
      throw ApiError.field(topic == null ? "topic" : "origin", "'topic' and 'origin' are required");
    }
    String retain = query.getOrDefault("retain", "false");
    if (!retain.equals("true") && !retain.equals("false")) {
      throw ApiError.field("retain", "'retain' must be true or false");
    }
    routeLookups.increment();
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
    return Reply.ok(o);
  }

  private Reply reportExchanges(String name, JsonNode body) {
    Fields.onlyKeys(body, Set.of("created", "deleted"));
    List<Exchange> created = new ArrayList<>();
    JsonNode c = body.path("created");
    if (!c.isMissingNode() && !c.isArray()) {
      throw ApiError.field("created", "'created' must be an array of exchanges");
    }
    for (JsonNode x : c) {
      if (!x.isObject()) {
        throw ApiError.field("created", "'created' must be an array of exchanges");
      }
      Fields.onlyKeys(x, Set.of("name", "type", "durable"));
      JsonNode durable = x.path("durable");
      if (!durable.isMissingNode() && !durable.isBoolean()) {
        throw ApiError.field("durable", "'durable' must be true or false");
      }
      created.add(new Exchange(text(x, "name"), text(x, "type"), durable.asBoolean(false)));
    }
    List<String> deleted = Fields.strings(body, "deleted", "topic filters");
    CoordinatorService.FilterReply r = service.updateExchanges(name, created, deleted);
    return Reply.ok(JSON.createObjectNode().put("version", r.version()).put("synced", r.synced()));
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

  private static String text(JsonNode body, String key) {
    JsonNode n = body.get(key);
    if (n == null || !n.isTextual()) {
      throw ApiError.field(key, "'" + key + "' must be a string");
    }
    return n.asText();
  }

  private static long longParam(Map<String, String> query, String key, long missing) {
    String v = query.get(key);
    if (v == null) {
      return missing;
    }
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw ApiError.field(key, "'" + key + "' must be an integer, not '" + v + "'");
    }
  }
}
