package org.netpubsub.controller.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;
import org.netpubsub.controller.app.GroupJson;
import org.netpubsub.controller.pubsub.LayoutSwitchOutcome;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.RequestRefusedException;
import org.netpubsub.http.ApiError;
import org.netpubsub.http.Fields;
import org.netpubsub.http.Principal;
import org.netpubsub.http.Reply;
import org.netpubsub.http.Request;
import org.netpubsub.http.RestServer;

/**
 * {@code PUT /v1/pubsub/layout} (an administrator's call, docs/pubsub.md "Switching the layout"):
 * {@code {"schema": YAML, "length"?: L, "grace_ms"?: ms}} switches the index online to the schema's
 * index and layout (same attributes), make-before-break, and answers when the old flows are gone:
 * the new version, the flows installed and removed, and the times.
 */
final class LayoutRoutes {
  /** How long publishers get to notice the new index before the old flows go, by default. */
  static final long DEFAULT_GRACE_MS = 3_000;

  private LayoutRoutes() {}

  static void register(RestServer.Builder b, Optional<PubSubService> service) {
    b.route(
        "PUT",
        "/v1/pubsub/layout",
        r -> {
          PubSubService s = service.orElseThrow(PubSubRoutes::off);
          r.principal().require(Principal.Admin.INDEX, "switch the index layout");
          return put(s, r);
        });
  }

  private static Reply put(PubSubService service, Request r) throws IOException {
    JsonNode n = r.json();
    Fields.onlyKeys(n, Set.of("schema", "length", "grace_ms"));
    Schema schema = SchemaLoader.parse(Fields.text(n, "schema", true), "schema");
    SpatialIndex next;
    try {
      next =
          n.hasNonNull("length")
              ? new SpatialIndex(schema, number(n, "length", 1, 112))
              : SpatialIndex.withDefaultLength(schema);
    } catch (IllegalArgumentException e) {
      throw ApiError.field("length", e.getMessage());
    }
    long grace = n.hasNonNull("grace_ms") ? number(n, "grace_ms", 0, 60_000) : DEFAULT_GRACE_MS;
    try {
      LayoutSwitchOutcome o =
          service
              .switchLayout(next, Duration.ofMillis(grace))
              .get(PubSubRoutes.ANSWER_TIMEOUT_SECONDS + grace / 1000, TimeUnit.SECONDS);
      ObjectNode out = GroupJson.JSON.createObjectNode();
      out.put("version", o.version());
      out.put("requests", o.requests());
      out.put("flows_installed", o.flowsInstalled());
      out.put("flows_removed", o.flowsRemoved());
      out.put("install_ms", Math.round(o.installMillis() * 1000) / 1000.0);
      out.put("total_ms", Math.round(o.totalMillis() * 1000) / 1000.0);
      out.put("length", next.length());
      return Reply.ok(out);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RequestRefusedException refused) {
        throw PubSubRoutes.refused(refused);
      }
      throw new ApiError(500, "layout switch failed: " + cause);
    } catch (TimeoutException e) {
      throw new ApiError(504, "the switches did not acknowledge the new layout in time");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiError(503, "interrupted");
    }
  }

  private static int number(JsonNode n, String field, int min, int max) {
    JsonNode v = n.get(field);
    if (!v.canConvertToInt() || v.asInt() < min || v.asInt() > max) {
      throw ApiError.field(field, field + " must be a whole number in " + min + ".." + max);
    }
    return v.asInt();
  }
}
