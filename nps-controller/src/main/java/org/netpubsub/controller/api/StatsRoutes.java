package org.netpubsub.controller.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import org.netpubsub.controller.app.GroupJson;
import org.netpubsub.controller.pubsub.Access;
import org.netpubsub.controller.pubsub.PubSubRequest;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.controller.pubsub.SubscriptionStats;
import org.netpubsub.http.ApiError;
import org.netpubsub.http.Fields;
import org.netpubsub.http.Principal;
import org.netpubsub.http.Reply;
import org.netpubsub.http.Request;
import org.netpubsub.http.RestServer;

/**
 * False positives measured by the subscribers (docs/pubsub.md "Measured by the subscribers"):
 * {@code POST /v1/subscriptions/{id}/stats} takes a subscriber's cumulative {@code received} and
 * {@code false_positives} (its owner only, else 403), {@code GET /v1/pubsub/stats} shows them per
 * subscription and in total. The totals are also Prometheus counters.
 */
final class StatsRoutes {
  /** Reports kept at most (one per subscription; the least recently reported goes first). */
  static final int MAX_REPORTING = 65_536;

  /** A subscription that has not reported for this long is left out. */
  static final long TTL_NANOS = 60_000_000_000L;

  /** Counters beyond this are refused (JSON numbers above it lose precision in JavaScript). */
  private static final long MAX_COUNT = (1L << 53) - 1;

  private final PubSubService service;
  private final SubscriptionStats stats;
  private final LongSupplier nanoClock;
  private final Counter received;
  private final Counter falsePositives;

  StatsRoutes(PubSubService service, MeterRegistry metrics, LongSupplier nanoClock) {
    this.service = service;
    this.stats = new SubscriptionStats(MAX_REPORTING, TTL_NANOS);
    this.nanoClock = nanoClock;
    this.received =
        Counter.builder("nps.subscriber.received")
            .description("datagrams subscribers reported receiving")
            .register(metrics);
    this.falsePositives =
        Counter.builder("nps.subscriber.false.positives")
            .description("datagrams subscribers reported dropping as not matching their filter")
            .register(metrics);
    Gauge.builder("nps.subscriber.false.positive.ratio", this, s -> s.totals().rate())
        .description("false positives over received, summed over the subscriptions reporting")
        .register(metrics);
  }

  static void register(RestServer.Builder b, Optional<StatsRoutes> routes) {
    b.route("POST", "/v1/subscriptions/{id}/stats", r -> on(routes).report(r));
    b.route("GET", "/v1/pubsub/stats", r -> Reply.ok(on(routes).show(r)));
  }

  private static StatsRoutes on(Optional<StatsRoutes> routes) {
    return routes.orElseThrow(PubSubRoutes::off);
  }

  private Reply report(Request r) throws IOException {
    String id = r.pathParam("id");
    JsonNode n = r.json();
    Fields.onlyKeys(n, Set.of("received", "false_positives"));
    long got = count(n, "received");
    long fp = count(n, "false_positives");
    if (fp > got) {
      throw ApiError.field("false_positives", "false_positives must not exceed received");
    }
    PubSubRequest sub =
        service
            .request(id)
            .filter(x -> x.kind() == PubSubRequest.Kind.SUBSCRIPTION)
            .orElseThrow(() -> new ApiError(404, "no subscription " + id));
    Access access = PubSubRoutes.access(r, null);
    boolean owns = service.owner(id).map(access::mayTouch).orElse(access.admin());
    if (!owns || !r.principal().mayActFor(sub.host().toString())) {
      throw r.principal().forbidden("report stats of subscription " + id + ": not its owner");
    }
    SubscriptionStats.Delta d = stats.record(id, got, fp, nanoClock.getAsLong());
    received.increment(d.received());
    falsePositives.increment(d.falsePositives());
    ObjectNode out = GroupJson.JSON.createObjectNode();
    out.put("id", id).put("received", got).put("false_positives", fp);
    return Reply.ok(out);
  }

  private JsonNode show(Request r) {
    Access access = PubSubRoutes.access(r, null);
    // a read-only principal (the dashboard's) sees every subscription, as in the listings
    boolean readsAll = access.admin() || r.principal().isAdmin(Principal.Admin.READ);
    Map<String, SubscriptionStats.Report> all = current();
    ObjectNode root = GroupJson.JSON.createObjectNode();
    ArrayNode subs = root.putArray("subscriptions");
    Map<String, SubscriptionStats.Report> shown = new java.util.TreeMap<>();
    long now = nanoClock.getAsLong();
    for (Map.Entry<String, SubscriptionStats.Report> e : all.entrySet()) {
      Optional<PubSubRequest> sub = service.request(e.getKey());
      if (sub.isEmpty()
          || !(readsAll || service.owner(e.getKey()).map(access::mayTouch).orElse(false))) {
        continue;
      }
      shown.put(e.getKey(), e.getValue());
      SubscriptionStats.Report x = e.getValue();
      ObjectNode s = subs.addObject();
      s.put("id", e.getKey()).put("host", sub.get().host().toString());
      s.put("filter", sub.get().filter()).put("port", sub.get().port());
      s.put("received", x.received()).put("false_positives", x.falsePositives());
      s.put("false_positive_rate", rate(x.received(), x.falsePositives()));
      s.put("reported_ms_ago", (now - x.atNanos()) / 1_000_000);
    }
    SubscriptionStats.Totals t = SubscriptionStats.totals(shown);
    ObjectNode total = root.putObject("total");
    total.put("subscriptions_reporting", t.subscriptions());
    total.put("received", t.received()).put("false_positives", t.falsePositives());
    total.put("false_positive_rate", rate(t.received(), t.falsePositives()));
    root.put("index_version", service.indexVersion().version());
    return root;
  }

  private Map<String, SubscriptionStats.Report> current() {
    return stats.current(id -> service.request(id).isPresent(), nanoClock.getAsLong());
  }

  private SubscriptionStats.Totals totals() {
    return SubscriptionStats.totals(current());
  }

  private static double rate(long received, long falsePositives) {
    return received == 0 ? 0 : Math.round(1e6 * falsePositives / received) / 1e6;
  }

  private static long count(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      throw ApiError.field(field, field + " is required");
    }
    if (!v.canConvertToLong()
        || !v.isIntegralNumber()
        || v.asLong() < 0
        || v.asLong() > MAX_COUNT) {
      throw ApiError.field(field, field + " must be a whole number in 0.." + MAX_COUNT);
    }
    return v.asLong();
  }
}
