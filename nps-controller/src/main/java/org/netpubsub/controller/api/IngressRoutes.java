package org.netpubsub.controller.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.netpubsub.controller.app.GroupJson;
import org.netpubsub.controller.pubsub.Ingress;
import org.netpubsub.http.ApiError;
import org.netpubsub.http.Reply;
import org.netpubsub.http.RestServer;
import org.netpubsub.network.topology.SwitchPort;

/**
 * {@code GET /v1/ingress}: whether publishing is enforced at the host ports (with {@code --auth}
 * and PLEROMA, docs/security.md) and the packets each port dropped; the same total is the gauge
 * {@code nps_ingress_dropped_packets}, read from the switches' flow counters at each scrape.
 */
final class IngressRoutes {
  /** How long a read of the switches' counters may take. */
  private static final long READ_SECONDS = 5;

  private IngressRoutes() {}

  static void register(RestServer.Builder b, Optional<Ingress> guard, MeterRegistry metrics) {
    guard.ifPresent(
        g ->
            Gauge.builder("nps.ingress.dropped.packets", g, IngressRoutes::total)
                .description(
                    "content-address packets dropped at host ports outside what their hosts"
                        + " advertised (the drop rules' flow counters)")
                .register(metrics));
    b.route("GET", "/v1/ingress", r -> Reply.ok(json(guard)));
  }

  private static double total(Ingress g) {
    try {
      return read(g).values().stream().mapToLong(Long::longValue).sum();
    } catch (ApiError e) {
      return Double.NaN;
    }
  }

  private static SortedMap<SwitchPort, Long> read(Ingress g) {
    try {
      return g.dropped().get(READ_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException | TimeoutException e) {
      throw new ApiError(504, "the switches did not answer: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ApiError(503, "interrupted");
    }
  }

  private static ObjectNode json(Optional<Ingress> guard) {
    ObjectNode root = GroupJson.JSON.createObjectNode();
    root.put("enforced", guard.isPresent());
    ArrayNode ports = root.putArray("ports");
    long total = 0;
    if (guard.isPresent()) {
      for (Map.Entry<SwitchPort, Long> e : read(guard.get()).entrySet()) {
        ports
            .addObject()
            .put("dpid", ControllerApi.dpid(e.getKey().dpid()))
            .put("port", e.getKey().port())
            .put("dropped_packets", e.getValue());
        total += e.getValue();
      }
    }
    root.put("dropped_packets", total);
    return root;
  }
}
