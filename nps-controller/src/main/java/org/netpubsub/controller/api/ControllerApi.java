package org.netpubsub.controller.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.app.ClusterRegistry;
import org.netpubsub.controller.app.GroupJson;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.multicast.MulticastGroups;
import org.netpubsub.controller.pubsub.ClusterIngress;
import org.netpubsub.controller.pubsub.Ingress;
import org.netpubsub.controller.pubsub.IngressGuard;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.RequestRefusedException;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.http.ApiError;
import org.netpubsub.http.Authenticator;
import org.netpubsub.http.CachedJson;
import org.netpubsub.http.Fields;
import org.netpubsub.http.HttpMetrics;
import org.netpubsub.http.Principal;
import org.netpubsub.http.Reply;
import org.netpubsub.http.Request;
import org.netpubsub.http.RestServer;
import org.netpubsub.http.ServerTls;
import org.netpubsub.network.discovery.HostRefusals;
import org.netpubsub.network.discovery.Ipv6NeighborDiscovery;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.OvsFlowSyntax;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;

/**
 * The controller's REST API on the shared HTTP layer (nps-http, docs/operations.md): {@code GET
 * /v1/topology}, {@code POST /v1/hosts}, {@code GET /v1/switches/{dpid}/flows[?source=switch]}, the
 * pub/sub requests (PubSubRoutes), the multicast groups (GroupRoutes), health, metrics, the OpenAPI
 * document and the dashboard at {@code /}. Errors are {@code {"error":{"code","message","field"?}}}
 * with 400 (bad input), 404 (unknown path or switch), 405, 413 (body over 64 KiB) or 504 (the
 * switch did not answer). Datapath ids are 16 hex digits.
 */
public final class ControllerApi implements Closeable {
  /** The largest request body accepted. */
  public static final int MAX_BODY = 64 * 1024;

  /** Hosts one switch port may carry through {@code POST /v1/hosts}: each host costs routes. */
  public static final int MAX_HOSTS_PER_PORT = Ipv6NeighborDiscovery.MAX_HOSTS_PER_PORT;

  /** The classpath directory of the dashboard, served at {@code /} when it is there. */
  static final String DASHBOARD = "dashboard";

  private final NetworkController controller;
  private final Optional<ClusterRegistry> registry;
  private final PrometheusMeterRegistry metrics;
  private final CachedJson<TopologyJson> topologyJson = new CachedJson<>(TopologyJson::render);
  private RestServer server;

  private ControllerApi(
      NetworkController controller,
      Optional<ClusterRegistry> registry,
      PrometheusMeterRegistry metrics) {
    this.controller = controller;
    this.registry = registry;
    this.metrics = metrics;
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
   * replicated to the other processes through {@code registry}. {@link
   * org.netpubsub.http.PortInUseException} if the address is taken.
   */
  public static ControllerApi start(
      NetworkController controller,
      Optional<PubSubService> pubsub,
      Optional<MulticastGroups> groups,
      Optional<ClusterRegistry> registry,
      InetSocketAddress address)
      throws IOException {
    return start(controller, pubsub, groups, registry, address, Optional.empty());
  }

  /**
   * The same, authenticating every request against {@code auth}'s principals (docs/security.md);
   * without it every request may do everything.
   */
  public static ControllerApi start(
      NetworkController controller,
      Optional<PubSubService> pubsub,
      Optional<MulticastGroups> groups,
      Optional<ClusterRegistry> registry,
      InetSocketAddress address,
      Optional<Authenticator> auth)
      throws IOException {
    return start(controller, pubsub, groups, registry, address, auth, null);
  }

  /** The same over HTTPS with {@code tls} (null: plain HTTP; docs/security.md). */
  public static ControllerApi start(
      NetworkController controller,
      Optional<PubSubService> pubsub,
      Optional<MulticastGroups> groups,
      Optional<ClusterRegistry> registry,
      InetSocketAddress address,
      Optional<Authenticator> auth,
      ServerTls tls)
      throws IOException {
    return start(controller, pubsub, groups, registry, address, auth, tls, Optional.empty());
  }

  /**
   * The same; in a cluster with {@code auth}, publishing is enforced at the host ports by {@code
   * clusterIngress} (the cluster's one writer of the drops), and not at all without it.
   */
  public static ControllerApi start(
      NetworkController controller,
      Optional<PubSubService> pubsub,
      Optional<MulticastGroups> groups,
      Optional<ClusterRegistry> registry,
      InetSocketAddress address,
      Optional<Authenticator> auth,
      ServerTls tls,
      Optional<ClusterIngress> clusterIngress)
      throws IOException {
    PrometheusMeterRegistry metrics = HttpMetrics.newRegistry();
    Runnable newMeters = ControllerMetrics.bind(metrics, controller, pubsub, registry);
    ControllerApi api = new ControllerApi(controller, registry, metrics);
    RestServer.Builder b =
        RestServer.builder("controller", metrics)
            .address(address)
            .maxBody(MAX_BODY)
            .auth(auth.orElse(null))
            .tls(tls)
            .openApi("controller-openapi.json")
            .onScrape(newMeters)
            .ready("southbound", () -> controller.openflowAddress().getPort() > 0)
            .error(RequestRefusedException.class, PubSubRoutes::refused)
            .error(InvalidInputException.class, e -> new ApiError(400, e.render()));
    pubsub.ifPresent(s -> b.ready("schema", () -> s.index().schema() != null));
    registry.ifPresent(r -> b.ready("zookeeper", r::zooKeeperConnected));
    if (ControllerApi.class.getClassLoader().getResource(DASHBOARD) != null) {
      b.staticFiles("/" + DASHBOARD);
    }
    // from memory (cached bytes): answered on the thread that read it, no hand-off
    b.inline("/v1/topology", r -> api.topology());
    b.route("POST", "/v1/hosts", api::registerHost);
    b.route("GET", "/v1/switches/{dpid}/flows", api::flows);
    // principals: publishing is enforced at the host ports too (PLEROMA's content addresses,
    // Camus's query addresses). In a cluster by its one writer, from every process's
    // advertisements (ClusterIngress).
    Optional<Ingress> ingress =
        pubsub
            .filter(s -> auth.isPresent())
            .flatMap(
                s ->
                    s.clusterMember().isPresent()
                        ? clusterIngress.map(Ingress.class::cast)
                        : Optional.<Ingress>of(
                            s.routing().equals("pleroma")
                                ? IngressGuard.attach(
                                    controller, s, controller.server()::switchHandle)
                                : IngressGuard.attachCamus(
                                    controller, s, controller.server()::switchHandle)));
    IngressRoutes.register(b, ingress, metrics);
    // a reload re-cuts the standing requests to the new regions
    auth.ifPresent(a -> pubsub.ifPresent(s -> PrincipalsReload.bind(a, s, ingress, metrics)));
    PubSubRoutes.register(b, pubsub.map(s -> new PubSubRoutes(s, metrics, ingress)));
    LayoutRoutes.register(b, pubsub);
    StatsRoutes.register(b, pubsub.map(s -> new StatsRoutes(s, metrics, System::nanoTime)));
    GroupRoutes.register(b, groups.map(g -> new GroupRoutes(g, registry)));
    api.server = b.start();
    return api;
  }

  public InetSocketAddress address() {
    return server.address();
  }

  /** The routes served, {@code "METHOD /path"} (the OpenAPI document must list the same). */
  public List<String> routes() {
    return server.routes();
  }

  /** The process's meters, for the metrics a command adds (e.g. a dashboard's). */
  public PrometheusMeterRegistry metrics() {
    return metrics;
  }

  @Override
  public void close() {
    server.close();
  }

  /** The topology's answer, rebuilt only when the topology or the connected switches change. */
  private Reply topology() {
    return topologyJson.reply(
        new TopologyJson(controller.topology(), controller.connectedSwitches()));
  }

  private Reply registerHost(Request req) throws IOException {
    JsonNode n = req.json();
    Ipv6Address address = address(Fields.text(n, "address", true));
    Principal p = req.principal();
    if (!p.mayActFor(address.toString())) {
      throw p.forbidden("register or move host " + address);
    }
    Optional<Host> known = controller.topology().host(address);
    String mac = Fields.text(n, "mac", false);
    String dpid = Fields.text(n, "dpid", false);
    JsonNode port = n.get("port");
    if (port != null && !port.canConvertToLong()) {
      throw ApiError.field("port", "port must be a number");
    }
    if ((mac == null || dpid == null || port == null) && known.isEmpty()) {
      throw new IllegalArgumentException(
          "unknown host " + address + ": give mac, dpid and port to register it");
    }
    SwitchPort at =
        dpid == null || port == null
            ? known.get().attachment()
            : new SwitchPort(parseDpid(dpid, "dpid"), port.asLong());
    List<Host> there = controller.topology().hostsAt(at);
    if (there.size() >= MAX_HOSTS_PER_PORT
        && there.stream().noneMatch(x -> x.address().equals(address))) {
      // counted with neighbour discovery's refusals, by its own reasons (nps_hosts_refused_total)
      controller
          .hostRefusals()
          .refused(HostRefusals.Reason.of(true, known.isPresent()), at, address);
      throw new ApiError(
          429,
          "switch "
              + dpid(at.dpid())
              + " port "
              + at.port()
              + " has "
              + MAX_HOSTS_PER_PORT
              + " hosts already (the limit of hosts per port)");
    }
    Host h = new Host(address, mac == null ? known.get().mac() : mac(mac), at);
    try {
      controller.registerHost(h).get(10, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof IllegalArgumentException bad) {
        throw bad;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException | TimeoutException e) {
      return new ApiError(503, "controller busy").reply();
    }
    if (registry.isPresent()) {
      try {
        registry.get().hostRegistered(h);
      } catch (Exception e) {
        return unreplicated("host " + h.address(), e).reply();
      }
    }
    ObjectNode o = GroupJson.JSON.createObjectNode().put("address", h.address().toString());
    o.put("mac", h.mac().toString());
    TopologyJson.end(o, h.attachment());
    return Reply.ok(o);
  }

  private static Ipv6Address address(String s) {
    try {
      return Ipv6Address.parse(s);
    } catch (IllegalArgumentException e) {
      throw ApiError.field("address", e.getMessage());
    }
  }

  private static MacAddress mac(String s) {
    try {
      return MacAddress.parse(s);
    } catch (IllegalArgumentException e) {
      throw ApiError.field("mac", e.getMessage());
    }
  }

  /**
   * 503: a change applied in this process could not be recorded for the cluster (ZooKeeper
   * unavailable); sending it again is safe.
   */
  static ApiError unreplicated(String what, Exception e) {
    return new ApiError(
        503,
        what
            + " is applied in this process but not replicated to the cluster"
            + " (ZooKeeper: "
            + e.getMessage()
            + "); send it again",
        null,
        Map.of("Retry-After", "1"));
  }

  private Reply flows(Request req) {
    long dpid = parseDpid(req.pathParam("dpid"), "dpid");
    String source = req.query("source");
    if (source != null && !source.equals("switch") && !source.equals("controller")) {
      throw ApiError.field("source", "source must be switch or controller, not '" + source + "'");
    }
    boolean fromSwitch = "switch".equals(source);
    List<FlowEntry> flows;
    if (fromSwitch) {
      Optional<SwitchHandle> sw = controller.server().switchHandle(dpid);
      if (sw.isEmpty()) {
        throw new ApiError(404, "switch " + dpid(dpid) + " is not connected");
      }
      try {
        flows = sw.get().flowStats().get(10, TimeUnit.SECONDS);
      } catch (ExecutionException | TimeoutException e) {
        throw new ApiError(504, "the switch did not answer: " + e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ApiError(503, "interrupted");
      }
    } else {
      if (!controller.topology().hasSwitch(dpid)) {
        throw new ApiError(404, "unknown switch " + dpid(dpid));
      }
      flows = controller.desiredFlows(dpid);
    }
    ObjectNode root = GroupJson.JSON.createObjectNode().put("dpid", dpid(dpid));
    root.put("source", fromSwitch ? "switch" : "controller");
    ArrayNode out = root.putArray("flows");
    for (FlowEntry f : flows) {
      out.addObject()
          .put("table", f.tableId())
          .put("priority", f.priority())
          .put("cookie", Long.toHexString(f.cookie()))
          .put("flow", OvsFlowSyntax.flow(f));
    }
    return Reply.ok(root);
  }

  /** A datapath id as 16 hex digits. */
  static String dpid(long dpid) {
    return GroupJson.dpid(dpid);
  }

  /** 16 hex digits, with or without colons; a 400 naming {@code field} otherwise. */
  static long parseDpid(String s, String field) {
    String hex = s.replace(":", "");
    try {
      if (hex.isEmpty() || hex.length() > 16) {
        throw new NumberFormatException();
      }
      return Long.parseUnsignedLong(hex, 16);
    } catch (NumberFormatException e) {
      throw ApiError.field(field, "not a datapath id (hex): " + s);
    }
  }
}
