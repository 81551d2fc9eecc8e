package org.netpubsub.controller.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.schema.SchemaWriter;
import org.netpubsub.controller.app.GroupJson;
import org.netpubsub.controller.pubsub.Access;
import org.netpubsub.controller.pubsub.IndexVersion;
import org.netpubsub.controller.pubsub.Ingress;
import org.netpubsub.controller.pubsub.PubSubRequest;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.RequestOutcome;
import org.netpubsub.controller.pubsub.RequestRefusedException;
import org.netpubsub.http.ApiError;
import org.netpubsub.http.Fields;
import org.netpubsub.http.HostPrefix;
import org.netpubsub.http.Principal;
import org.netpubsub.http.Reply;
import org.netpubsub.http.Request;
import org.netpubsub.http.RestServer;
import org.netpubsub.http.Route;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * The pub/sub part of the REST API (docs/pubsub.md): {@code GET /v1/pubsub}, and {@code
 * /v1/advertisements}, {@code /v1/subscriptions} (POST, GET, DELETE by body or by id). A request
 * answers once every switch it touched has acknowledged. Counts every request it answers in {@code
 * nps_pubsub_requests_total} by kind, action and status.
 */
final class PubSubRoutes {
  /** How long a request may wait for the switches before the answer is 504. */
  static final long ANSWER_TIMEOUT_SECONDS = 30;

  private final PubSubService service;
  private final MeterRegistry metrics;
  private final Optional<Ingress> ingress;

  PubSubRoutes(PubSubService service, MeterRegistry metrics, Optional<Ingress> ingress) {
    this.service = service;
    this.metrics = metrics;
    this.ingress = ingress;
  }

  /** The routes, answered 404 "pub/sub is off" when the controller runs without a schema. */
  static void register(RestServer.Builder b, Optional<PubSubRoutes> routes) {
    for (PubSubRequest.Kind kind : PubSubRequest.Kind.values()) {
      String base = "/v1/" + noun(kind) + "s";
      b.route(
          "GET",
          base,
          on(
              routes,
              (p, r) ->
                  Reply.ok(
                      p.list(kind, access(r, null), r.principal().isAdmin(Principal.Admin.READ)))));
      b.route(
          "POST",
          base,
          on(routes, (p, r) -> p.counted(kind, "post", () -> p.versioned(r).post(kind, r))));
      b.route(
          "DELETE",
          base,
          on(routes, (p, r) -> p.counted(kind, "withdraw", () -> p.versioned(r).delete(kind, r))));
      b.route(
          "DELETE",
          base + "/{id}",
          on(
              routes,
              (p, r) ->
                  p.counted(
                      kind,
                      "withdraw",
                      () ->
                          answer(
                              p.versioned(r).service.withdraw(r.pathParam("id"), access(r, null)),
                              200))));
    }
    b.route("GET", "/v1/pubsub", on(routes, (p, r) -> Reply.ok(p.settings())));
  }

  private interface Handler {
    Reply handle(PubSubRoutes routes, Request r) throws IOException;
  }

  private interface Call {
    Reply call() throws IOException;
  }

  private static Route on(Optional<PubSubRoutes> routes, Handler h) {
    return r -> h.handle(routes.orElseThrow(PubSubRoutes::off), r);
  }

  /** The answer of every pub/sub route on a controller without a schema. */
  static ApiError off() {
    return new ApiError(404, "pub/sub is off: start the controller with --schema");
  }

  /** The answer of {@code call}, refusals included, counted by kind, action and status. */
  private Reply counted(PubSubRequest.Kind kind, String action, Call call) throws IOException {
    Reply reply;
    try {
      reply = call.call();
    } catch (RuntimeException e) {
      reply = mapped(e).reply();
    }
    if (kind == PubSubRequest.Kind.ADVERTISEMENT && reply.status() / 100 == 2) {
      reply = ingressSynced(reply);
    }
    Counter.builder("nps.pubsub.requests")
        .description("pub/sub requests answered, by kind, action and status")
        .tags("kind", noun(kind), "action", action, "status", Integer.toString(reply.status()))
        .register(metrics)
        .increment();
    return reply;
  }

  /**
   * The answer once the host ports' drops follow the advertisements (an advertiser may publish once
   * answered); 504 if the switches did not acknowledge them in time.
   */
  private Reply ingressSynced(Reply reply) {
    if (ingress.isEmpty()) {
      return reply;
    }
    try {
      ingress.get().sync().get(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
      return reply;
    } catch (ExecutionException | TimeoutException e) {
      return new ApiError(504, "switches did not acknowledge the ingress rules; still trying")
          .reply();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new ApiError(503, "interrupted").reply();
    }
  }

  /**
   * Refuses a request made with a stale index ({@value StaleIndex#HEADER} older or newer than the
   * current version) with 409 and the current version; a request without the header is accepted.
   */
  private PubSubRoutes versioned(Request r) {
    StaleIndex.check(r.header(StaleIndex.HEADER), service.indexVersion().version());
    return this;
  }

  private Reply post(PubSubRequest.Kind kind, Request r) throws IOException {
    JsonNode n = r.json();
    String host = Fields.text(n, "host", true);
    String filter = Fields.text(n, "filter", true);
    Optional<String> key = Optional.ofNullable(r.header("Idempotency-Key"));
    Access access = access(r, kind);
    mayActFor(r.principal(), host);
    return kind == PubSubRequest.Kind.ADVERTISEMENT
        ? answer(service.advertise(host, filter, key, access), 201)
        : answer(service.subscribe(host, filter, port(n), key, access), 201);
  }

  private Reply delete(PubSubRequest.Kind kind, Request r) throws IOException {
    JsonNode n = r.json();
    String host = Fields.text(n, "host", true);
    String filter = Fields.text(n, "filter", true);
    int port = kind == PubSubRequest.Kind.ADVERTISEMENT ? ContentFlows.EVENT_PORT : port(n);
    mayActFor(r.principal(), host);
    Access access = access(r, null);
    return service
        .find(kind, host, filter, port, access)
        .map(found -> answer(service.withdraw(found.id(), access), 200))
        .orElseGet(() -> new ApiError(404, "no such " + noun(kind) + " of " + host).reply());
  }

  /**
   * The request's principal as the service sees it: owner, admin (of hosts), the region of {@code
   * kind} (null: none needed) and the rate-limit key, principal and real source address.
   */
  static Access access(Request r, PubSubRequest.Kind kind) {
    Principal p = r.principal();
    Optional<String> region = Optional.empty();
    if (kind != null) {
      boolean sub = kind == PubSubRequest.Kind.SUBSCRIPTION;
      Optional<String> allowed = sub ? p.subscribe() : p.advertise();
      if (allowed.isEmpty()) {
        throw p.forbidden((sub ? "subscribe" : "advertise") + ": it has no region to do so in");
      }
      region = allowed.filter(a -> !a.equals(Principal.ANYWHERE));
    }
    return new Access(
        p.name(), p.isAdmin(Principal.Admin.HOSTS), region, p.name() + "@" + r.remoteAddress());
  }

  /** 403 if the principal may not act for {@code host} (a malformed host is the service's 400). */
  private static void mayActFor(Principal p, String host) {
    if (HostPrefix.literal(host) != null && !p.mayActFor(host)) {
      throw p.forbidden("act for host " + host);
    }
  }

  private static int port(JsonNode n) {
    JsonNode p = n.get("port");
    if (p == null || p.isNull()) {
      return ContentFlows.EVENT_PORT;
    }
    if (!p.canConvertToInt()) {
      throw ApiError.field("port", "port must be a number");
    }
    return p.asInt();
  }

  /** Waits for the switches, then answers with the outcome (or the refusal). */
  private static Reply answer(CompletableFuture<RequestOutcome> f, int status) {
    try {
      return new Reply(status, outcome(f.get(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS)));
    } catch (ExecutionException e) {
      return mapped(e.getCause()).reply();
    } catch (TimeoutException e) {
      return new ApiError(504, "switches did not acknowledge within 30 s; still trying").reply();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new ApiError(503, "interrupted").reply();
    }
  }

  /** A refusal as its error: the status the service chose, with Retry-After when it gave one. */
  static ApiError refused(RequestRefusedException r) {
    return new ApiError(
        RefusalStatus.of(r.refused()),
        r.getMessage(),
        null,
        r.retryAfterSeconds().isPresent()
            ? Map.of("Retry-After", Long.toString(r.retryAfterSeconds().getAsLong()))
            : Map.of());
  }

  private static ApiError mapped(Throwable e) {
    if (e instanceof CompletionException c && c.getCause() != null) {
      e = c.getCause();
    }
    return switch (e) {
      case RequestRefusedException r -> refused(r);
      case InvalidInputException bad -> new ApiError(400, bad.render());
      case ApiError a -> a;
      case IllegalArgumentException bad -> new ApiError(400, bad.getMessage());
      default -> new ApiError(500, String.valueOf(e));
    };
  }

  private static ObjectNode outcome(RequestOutcome o) {
    ObjectNode n = describe(o.request());
    n.put("flow_changes", o.flowChanges());
    n.put("switches", o.switches());
    n.put("paths", o.paths());
    n.put("response_ms", Math.round(o.responseMillis() * 1000) / 1000.0);
    return n;
  }

  private static ObjectNode describe(PubSubRequest r) {
    ObjectNode n = GroupJson.JSON.createObjectNode();
    n.put("id", r.id());
    n.put("host", r.host().toString());
    n.put("filter", r.filter());
    if (r.kind() == PubSubRequest.Kind.SUBSCRIPTION) {
      n.put("port", r.port());
    }
    n.put("cells", r.cells().size());
    return n;
  }

  /** The requests of a kind: the principal's own, or every one for an admin or a reader. */
  private JsonNode list(PubSubRequest.Kind kind, Access access, boolean readsAll) {
    ObjectNode root = GroupJson.JSON.createObjectNode();
    ArrayNode out = root.putArray(noun(kind) + "s");
    for (PubSubRequest r : service.requests(kind)) {
      if (!readsAll
          && !access.admin()
          && !service.owner(r.id()).map(access::mayTouch).orElse(false)) {
        continue;
      }
      ObjectNode n = describe(r);
      ArrayNode dz = n.putArray("dz");
      for (Dz d : r.cells()) {
        dz.add(d.bits());
      }
      out.add(n);
    }
    return root;
  }

  private ObjectNode settings() {
    ObjectNode n = GroupJson.JSON.createObjectNode();
    IndexVersion current = service.indexVersion();
    n.put("schema", SchemaWriter.toYaml(current.index().schema()));
    // the form the CLI prints (nps schema check): 8 hex digits
    n.put("schema_id", String.format("%08x", current.index().schema().id()));
    ObjectNode index = n.putObject("index");
    index.put("version", current.version());
    index.put("length", current.index().length());
    ArrayNode dims = index.putArray("dimensions");
    current.index().schema().indexDimensions().forEach(a -> dims.add(a.name()));
    index.set("layout", GroupJson.JSON.valueToTree(current.index().schema().layout().toJson()));
    n.put("event_port", current.eventPort());
    n.put("max_cells", service.limits().maxCells());
    n.put("routing", service.routing());
    service.localSwitch().ifPresent(a -> n.put("local_switch", a));
    return n;
  }

  static String noun(PubSubRequest.Kind kind) {
    return kind == PubSubRequest.Kind.ADVERTISEMENT ? "advertisement" : "subscription";
  }
}
