package org.netpubsub.controller.app;

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
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.OvsFlowSyntax;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The controller's REST API (JDK HttpServer, JSON): {@code GET /v1/topology}, {@code POST
 * /v1/hosts}, {@code GET /v1/switches/{dpid}/flows[?source=switch]}, the pub/sub requests
 * (PubSubRoutes) and the multicast groups (GroupRoutes). Errors are {@code {"error":"..."}} with
 * 400 (bad input), 404 (unknown path or switch), 405, 413 (body over 64 KiB) or 504 (the switch did
 * not answer). Datapath ids are 16 hex digits in JSON.
 */
public final class ControllerApi implements Closeable {
  /** The largest request body accepted. */
  public static final int MAX_BODY = 64 * 1024;

  private static final ObjectMapper JSON = ApiReply.JSON;
  private final NetworkController controller;
  private final Optional<PubSubRoutes> pubsub;
  private final Optional<GroupRoutes> groups;
  private final Optional<ClusterRegistry> registry;
  private final HttpServer server;
  private final ExecutorService workers;

  private ControllerApi(
      NetworkController controller,
      Optional<PubSubService> pubsub,
      Optional<MulticastGroups> groups,
      Optional<ClusterRegistry> registry,
      HttpServer server) {
    this.controller = controller;
    this.pubsub = pubsub.map(PubSubRoutes::new);
    this.groups = groups.map(g -> new GroupRoutes(g, registry));
    this.registry = registry;
    this.server = server;
    // requests block until switches acknowledge: enough workers for concurrent clients
    this.workers = Executors.newFixedThreadPool(16, Thread.ofPlatform().daemon().factory());
    server.setExecutor(workers);
    server.createContext("/", DashboardFiles.around(this::handle));
  }

  /** Serves the API on {@code address} (port 0: a free port, see {@link #address}). */
  public static ControllerApi start(NetworkController controller, InetSocketAddress address)
      throws IOException {
    return start(controller, Optional.empty(), address);
  }

  /** The same, with the pub/sub requests of {@code pubsub} (docs/pubsub.md). */
  public static ControllerApi start(
      NetworkController controller, Optional<PubSubService> pubsub, InetSocketAddress address)
      throws IOException {
    return start(controller, pubsub, Optional.empty(), address);
  }

  /** The same, with the multicast groups of {@code groups} (docs/multicast.md). */
  public static ControllerApi start(
      NetworkController controller,
      Optional<PubSubService> pubsub,
      Optional<MulticastGroups> groups,
      InetSocketAddress address)
      throws IOException {
    return start(controller, pubsub, groups, Optional.empty(), address);
  }

  /**
   * The same in a controller process of a cluster: hosts registered and groups changed here are
   * replicated to the other processes through {@code registry}.
   */
  public static ControllerApi start(
      NetworkController controller,
      Optional<PubSubService> pubsub,
      Optional<MulticastGroups> groups,
      Optional<ClusterRegistry> registry,
      InetSocketAddress address)
      throws IOException {
    ControllerApi api =
        new ControllerApi(controller, pubsub, groups, registry, HttpServer.create(address, 64));
    api.server.start();
    return api;
  }

  public InetSocketAddress address() {
    return server.getAddress();
  }

  @Override
  public void close() {
    server.stop(0);
    workers.shutdownNow();
  }

  private void handle(HttpExchange ex) throws IOException {
    ApiReply r;
    try {
      r = route(ex);
    } catch (BadBody e) {
      r = e.reply;
    } catch (IllegalArgumentException e) {
      r = ApiReply.error(400, e.getMessage());
    } catch (RuntimeException e) {
      r = ApiReply.error(500, String.valueOf(e));
    }
    byte[] bytes = JSON.writeValueAsBytes(r.body());
    ex.getResponseHeaders().set("Content-Type", "application/json");
    r.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
    ex.sendResponseHeaders(r.status(), bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private ApiReply route(HttpExchange ex) throws IOException {
    URI uri = ex.getRequestURI();
    String path = uri.getPath();
    String method = ex.getRequestMethod();
    String[] parts = path.split("/");
    if (path.equals("/v1/topology")) {
      return method.equals("GET") ? new ApiReply(200, topology()) : notAllowed();
    }
    if (path.equals("/v1/hosts")) {
      return method.equals("POST") ? registerHost(ex) : notAllowed();
    }
    if (PubSubRoutes.handles(path)) {
      if (pubsub.isEmpty()) {
        return ApiReply.error(404, "pub/sub is off: start the controller with --schema");
      }
      return pubsub.get().route(method, path, ex);
    }
    if (GroupRoutes.handles(path)) {
      if (groups.isEmpty()) {
        return ApiReply.error(404, "multicast groups are off");
      }
      return groups.get().route(method, path, ex);
    }
    if (parts.length == 5 && path.startsWith("/v1/switches/") && parts[4].equals("flows")) {
      if (!method.equals("GET")) {
        return notAllowed();
      }
      boolean fromSwitch = "source=switch".equals(uri.getQuery());
      return flows(parseDpid(parts[3]), fromSwitch);
    }
    return ApiReply.error(404, "no such resource: " + path);
  }

  private static ApiReply notAllowed() {
    return ApiReply.notAllowed();
  }

  private ObjectNode topology() {
    Topology t = controller.topology();
    ObjectNode root = JSON.createObjectNode();
    ArrayNode switches = root.putArray("switches");
    for (long dpid : t.switches()) {
      ObjectNode s = switches.addObject().put("dpid", dpid(dpid));
      s.put("connected", controller.connectedSwitches().contains(dpid));
      ArrayNode ports = s.putArray("ports");
      t.ports(dpid).forEach(ports::add);
    }
    ArrayNode links = root.putArray("links");
    for (Link l : t.links()) {
      ObjectNode o = links.addObject();
      end(o.putObject("a"), l.a());
      end(o.putObject("b"), l.b());
    }
    ArrayNode hosts = root.putArray("hosts");
    for (Host h : t.hosts().values()) {
      ObjectNode o = hosts.addObject().put("address", h.address().toString());
      o.put("mac", h.mac().toString());
      end(o, h.attachment());
    }
    return root;
  }

  private static void end(ObjectNode o, SwitchPort p) {
    o.put("dpid", dpid(p.dpid())).put("port", p.port());
  }

  /**
   * The request body as a JSON object; {@link BadBody} (413 or 400) if it is over {@link #MAX_BODY}
   * bytes, malformed or not an object.
   */
  static JsonNode jsonBody(HttpExchange ex) throws IOException {
    byte[] body;
    try (InputStream in = ex.getRequestBody()) {
      body = in.readNBytes(MAX_BODY + 1);
    }
    if (body.length > MAX_BODY) {
      throw new BadBody(ApiReply.error(413, "request body over " + MAX_BODY + " bytes"));
    }
    JsonNode n;
    try {
      n = JSON.readTree(new String(body, StandardCharsets.UTF_8));
    } catch (JsonProcessingException e) {
      throw new BadBody(ApiReply.error(400, "malformed JSON: " + e.getOriginalMessage()));
    }
    if (n == null || !n.isObject()) {
      throw new BadBody(ApiReply.error(400, "expected a JSON object"));
    }
    return n;
  }

  /** A request body refused before it is read as a request. */
  static final class BadBody extends RuntimeException {
    final ApiReply reply;

    BadBody(ApiReply reply) {
      super(reply.body().toString(), null, false, false);
      this.reply = reply;
    }
  }

  private ApiReply registerHost(HttpExchange ex) throws IOException {
    JsonNode n = jsonBody(ex);
    Ipv6Address address = Ipv6Address.parse(text(n, "address", true));
    Optional<Host> known = controller.topology().host(address);
    String mac = text(n, "mac", false);
    String dpid = text(n, "dpid", false);
    JsonNode port = n.get("port");
    if (port != null && !port.canConvertToLong()) {
      throw new IllegalArgumentException("port must be a number");
    }
    if ((mac == null || dpid == null || port == null) && known.isEmpty()) {
      throw new IllegalArgumentException(
          "unknown host " + address + ": give mac, dpid and port to register it");
    }
    Host h =
        new Host(
            address,
            mac == null ? known.get().mac() : MacAddress.parse(mac),
            dpid == null || port == null
                ? known.get().attachment()
                : new SwitchPort(parseDpid(dpid), port.asLong()));
    try {
      controller.registerHost(h).get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IllegalArgumentException bad) {
        throw bad;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      return ApiReply.error(503, "controller busy");
    }
    if (registry.isPresent()) {
      try {
        registry.get().hostRegistered(h);
      } catch (Exception e) {
        return unreplicated("host " + h.address(), e);
      }
    }
    ObjectNode o = JSON.createObjectNode().put("address", h.address().toString());
    o.put("mac", h.mac().toString());
    end(o, h.attachment());
    return new ApiReply(200, o);
  }

  /**
   * 503: a change applied in this process could not be recorded for the cluster (ZooKeeper
   * unavailable); sending it again is safe.
   */
  static ApiReply unreplicated(String what, Exception e) {
    return new ApiReply(
        503,
        ApiReply.error(
                503,
                what
                    + " is applied in this process but not replicated to the cluster"
                    + " (ZooKeeper: "
                    + e.getMessage()
                    + "); send it again")
            .body(),
        java.util.Map.of("Retry-After", "1"));
  }

  static String text(JsonNode n, String field, boolean required) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      if (required) {
        throw new IllegalArgumentException(field + " is required");
      }
      return null;
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException(field + " must be a string");
    }
    return v.asText();
  }

  private ApiReply flows(long dpid, boolean fromSwitch) {
    List<FlowEntry> flows;
    if (fromSwitch) {
      Optional<SwitchHandle> sw = controller.server().switchHandle(dpid);
      if (sw.isEmpty()) {
        return ApiReply.error(404, "switch " + dpid(dpid) + " is not connected");
      }
      try {
        flows = sw.get().flowStats().get(10, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        return ApiReply.error(504, "the switch did not answer: " + e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return ApiReply.error(503, "interrupted");
      }
    } else {
      if (!controller.topology().hasSwitch(dpid)) {
        return ApiReply.error(404, "unknown switch " + dpid(dpid));
      }
      flows = controller.desiredFlows(dpid);
    }
    ObjectNode root = JSON.createObjectNode().put("dpid", dpid(dpid));
    root.put("source", fromSwitch ? "switch" : "controller");
    ArrayNode out = root.putArray("flows");
    for (FlowEntry f : flows) {
      out.addObject()
          .put("table", f.tableId())
          .put("priority", f.priority())
          .put("cookie", Long.toHexString(f.cookie()))
          .put("flow", OvsFlowSyntax.flow(f));
    }
    return new ApiReply(200, root);
  }

  /** A datapath id as 16 hex digits. */
  static String dpid(long dpid) {
    return String.format("%016x", dpid);
  }

  /** 16 hex digits, with or without colons, or a decimal number with a {@code d:} prefix. */
  static long parseDpid(String s) {
    String hex = s.replace(":", "");
    try {
      if (hex.isEmpty() || hex.length() > 16) {
        throw new NumberFormatException();
      }
      return Long.parseUnsignedLong(hex, 16);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a datapath id (hex): " + s);
    }
  }
}
