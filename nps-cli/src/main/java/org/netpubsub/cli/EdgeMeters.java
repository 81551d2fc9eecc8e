package org.netpubsub.cli;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.netpubsub.edge.broker.AgentStats;
import org.netpubsub.http.DynamicMeters;
import org.netpubsub.http.DynamicMeters.Meter;

/**
 * The meters of the edge agent and the overlay brokers (docs/operations.md lists them), read from
 * the counters they keep already at each scrape.
 */
final class EdgeMeters {
  /** Reliable mode's state: gauges; its other names count events. */
  private static final Set<String> RELIABLE_GAUGES =
      Set.of("lost", "recovered", "pending", "heartbeats_pending", "unknown");

  private EdgeMeters() {}

  /** The edge agent's: {@code nps_edge_agent_*}. */
  static Runnable agent(MeterRegistry r, Supplier<AgentStats> stats) {
    return new DynamicMeters(r, () -> flat(stats.get()), EdgeMeters::agentMeter)::refresh;
  }

  /**
   * An overlay broker's: {@code nps_overlay_<counter>_total}, drops by reason, and with {@code
   * leader} (routing brokers) whether this one assigns topics.
   */
  static Runnable overlay(
      MeterRegistry r, Supplier<Map<String, Long>> counters, BooleanSupplier leader) {
    if (leader != null) {
      Gauge.builder("nps.overlay.leader", leader, l -> l.getAsBoolean() ? 1 : 0)
          .description("1 while this routing broker is the leader (assigns topics), else 0")
          // a gauge holds its object weakly: a method reference nobody else keeps would be
          // collected, and the gauge would read NaN
          .strongReference(true)
          .register(r);
    }
    return new DynamicMeters(r, counters, EdgeMeters::overlayMeter)::refresh;
  }

  static Map<String, Long> flat(AgentStats s) {
    Map<String, Long> m = new LinkedHashMap<>();
    m.put("forwarded", s.forwarded());
    m.put("received", s.received());
    m.put("published", s.published());
    m.put("route_lookups", s.routeLookups());
    m.put("route_cache_hits", s.cacheHits());
    m.put("filters_reported", s.filtersReported());
    s.dropped().forEach((k, v) -> m.put("dropped." + k, v));
    s.reliable().forEach((k, v) -> m.put("reliable." + k, v));
    m.putAll(s.keys());
    return m;
  }

  static Meter agentMeter(String key) {
    if (key.equals("keys_held")) {
      return Meter.gauge(
          "nps.edge.agent.keys.held",
          "datagram keys the agent accepts now (from the coordinator)",
          Tags.empty());
    }
    if (key.equals("sender_keys_held") || key.equals("edges_revoked")) {
      return Meter.gauge(
          "nps.edge.agent." + key.replace('_', '.'),
          key.equals("edges_revoked")
              ? "edges revoked by the coordinator (an own-key agent's last good answer)"
              : "senders whose keys the agent holds (an own-key agent's last good answer)",
          Tags.empty());
    }
    if (key.startsWith("reliable.")) {
      String name = key.substring(9);
      return RELIABLE_GAUGES.contains(name)
          ? Meter.gauge(
              "nps.edge.agent.reliable.state",
              "reliable mode's receive windows: sequence numbers lost, recovered, pending",
              Tags.of("state", name))
          : Meter.counter(
              "nps.edge.agent.reliable",
              "reliable mode's and retained replay's events: NACKs, retransmissions, heartbeats",
              Tags.of("event", name));
    }
    return counter("nps.edge.agent", "edge agent", key);
  }

  static Meter overlayMeter(String key) {
    if (key.equals("edges_revoked")) {
      return Meter.gauge(
          "nps.overlay.edges.revoked",
          "edges whose messages this broker refuses now (--revoked-edges and the revoked-edges"
              + " znode)",
          Tags.empty());
    }
    return counter("nps.overlay", "overlay broker", key);
  }

  /** {@code dropped.<reason>}: {@code <prefix>.dropped{reason}}; else {@code <prefix>.<key>}. */
  private static Meter counter(String prefix, String process, String key) {
    if (key.startsWith("dropped.")) {
      return Meter.counter(
          prefix + ".dropped",
          process + ": dropped, by reason",
          Tags.of("reason", key.substring(8)));
    }
    return Meter.counter(
        prefix + "." + key.replace('_', '.'), process + ": " + key.replace('_', ' '), Tags.empty());
  }
}
