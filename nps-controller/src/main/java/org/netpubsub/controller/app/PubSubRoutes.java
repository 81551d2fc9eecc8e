package org.netpubsub.controller.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.schema.SchemaWriter;
import org.netpubsub.controller.pubsub.PubSubRequest;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.RequestOutcome;
import org.netpubsub.controller.pubsub.RequestRefusedException;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * The pub/sub part of the REST API (docs/pubsub.md): {@code GET /v1/pubsub}, and {@code
 * /v1/advertisements}, {@code /v1/subscriptions} (POST, GET, DELETE by body or by id). A request
 * answers once every switch it touched has acknowledged.
 */
final class PubSubRoutes {
  /** How long a request may wait for the switches before the answer is 504. */
  static final long ANSWER_TIMEOUT_SECONDS = 30;

  private final PubSubService service;

  PubSubRoutes(PubSubService service) {
    this.service = service;
  }

  static boolean handles(String path) {
    return path.equals("/v1/pubsub")
        || path.startsWith("/v1/advertisements")
        || path.startsWith("/v1/subscriptions");
  }

  ApiReply route(String method, String path, HttpExchange ex) throws IOException {
    if (path.equals("/v1/pubsub")) {
      return method.equals("GET") ? new ApiReply(200, settings()) : ApiReply.notAllowed();
    }
    String[] parts = path.split("/");
    PubSubRequest.Kind kind =
        parts[2].equals("advertisements")
            ? PubSubRequest.Kind.ADVERTISEMENT
            : parts[2].equals("subscriptions") ? PubSubRequest.Kind.SUBSCRIPTION : null;
    if (kind == null || parts.length > 4) {
      return ApiReply.error(404, "no such resource: " + path);
    }
    try {
      if (parts.length == 4) {
        return method.equals("DELETE")
            ? answer(service.withdraw(parts[3]), 200)
            : ApiReply.notAllowed();
      }
      return switch (method) {
        case "GET" -> new ApiReply(200, list(kind));
        case "POST" -> post(kind, ControllerApi.jsonBody(ex), idempotencyKey(ex));
        case "DELETE" -> delete(kind, ControllerApi.jsonBody(ex));
        default -> ApiReply.notAllowed();
      };
    } catch (RuntimeException e) {
      return refusal(e);
    }
  }

  private ApiReply post(PubSubRequest.Kind kind, JsonNode n, Optional<String> key) {
    String host = ControllerApi.text(n, "host", true);
    String filter = ControllerApi.text(n, "filter", true);
    return kind == PubSubRequest.Kind.ADVERTISEMENT
        ? answer(service.advertise(host, filter, key), 201)
        : answer(service.subscribe(host, filter, port(n), key), 201);
  }

  /** The {@code Idempotency-Key} header: a retry with the same key answers the first request. */
  private static Optional<String> idempotencyKey(HttpExchange ex) {
    return Optional.ofNullable(ex.getRequestHeaders().getFirst("Idempotency-Key"));
  }

  private ApiReply delete(PubSubRequest.Kind kind, JsonNode n) {
    String host = ControllerApi.text(n, "host", true);
    String filter = ControllerApi.text(n, "filter", true);
    int port = kind == PubSubRequest.Kind.ADVERTISEMENT ? ContentFlows.EVENT_PORT : port(n);
    return service
        .find(kind, host, filter, port)
        .map(r -> answer(service.withdraw(r.id()), 200))
        .orElseGet(() -> ApiReply.error(404, "no such " + noun(kind) + " of " + host));
  }

  private static int port(JsonNode n) {
    JsonNode p = n.get("port");
    if (p == null || p.isNull()) {
      return ContentFlows.EVENT_PORT;
    }
    if (!p.canConvertToInt()) {
      throw new IllegalArgumentException("port must be a number");
    }
    return p.asInt();
  }

  /** Waits for the switches, then answers with the outcome. */
  private static ApiReply answer(CompletableFuture<RequestOutcome> f, int status) {
    try {
      return new ApiReply(status, outcome(f.get(ANSWER_TIMEOUT_SECONDS, TimeUnit.SECONDS)));
    } catch (ExecutionException e) {
      return refusal(e.getCause());
    } catch (TimeoutException e) {
      return ApiReply.error(504, "switches did not acknowledge within 30 s; still trying");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return ApiReply.error(503, "interrupted");
    }
  }

  private static ApiReply refusal(Throwable e) {
    if (e instanceof java.util.concurrent.CompletionException c && c.getCause() != null) {
      e = c.getCause();
    }
    return switch (e) {
      case RequestRefusedException r ->
          new ApiReply(
              RefusalStatus.of(r.refused()),
              ApiReply.error(RefusalStatus.of(r.refused()), r.getMessage()).body(),
              r.retryAfterSeconds().isPresent()
                  ? Map.of("Retry-After", Long.toString(r.retryAfterSeconds().getAsLong()))
                  : Map.of());
      case InvalidInputException bad -> ApiReply.error(400, bad.render());
      case ControllerApi.BadBody bad -> bad.reply;
      case IllegalArgumentException bad -> ApiReply.error(400, bad.getMessage());
      default -> ApiReply.error(500, String.valueOf(e));
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
    ObjectNode n = ApiReply.JSON.createObjectNode();
    n.put("id", r.id());
    n.put("host", r.host().toString());
    n.put("filter", r.filter());
    if (r.kind() == PubSubRequest.Kind.SUBSCRIPTION) {
      n.put("port", r.port());
    }
    n.put("cells", r.cells().size());
    return n;
  }

  private JsonNode list(PubSubRequest.Kind kind) {
    ObjectNode root = ApiReply.JSON.createObjectNode();
    ArrayNode out = root.putArray(noun(kind) + "s");
    for (PubSubRequest r : service.requests(kind)) {
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
    ObjectNode n = ApiReply.JSON.createObjectNode();
    n.put("schema", SchemaWriter.toYaml(service.index().schema()));
    n.put("schema_id", service.index().schema().id());
    ObjectNode index = n.putObject("index");
    index.put("length", service.index().length());
    ArrayNode dims = index.putArray("dimensions");
    service.index().schema().indexDimensions().forEach(a -> dims.add(a.name()));
    n.put("event_port", ContentFlows.EVENT_PORT);
    n.put("max_cells", service.limits().maxCells());
    n.put("routing", service.routing());
    return n;
  }

  private static String noun(PubSubRequest.Kind kind) {
    return kind == PubSubRequest.Kind.ADVERTISEMENT ? "advertisement" : "subscription";
  }
}
