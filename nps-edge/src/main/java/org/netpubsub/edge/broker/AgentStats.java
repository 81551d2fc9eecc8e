package org.netpubsub.edge.broker;

import java.util.Map;

/**
 * The agent's counters. {@code forwarded}: datagrams sent; {@code received}: datagrams read; {@code
 * published}: messages put into the local broker; {@code dropped}: by reason (malformed datagrams
 * by their fault, {@code too_large}, {@code own_origin}, {@code no_route}, {@code send_failed},
 * {@code publish_failed}, {@code duplicate}); {@code routeLookups}: questions to the coordinator;
 * {@code cacheHits}; {@code reliable}: reliable mode's and retained replay's counters and state
 * (docs/edge.md), empty when neither ran; {@code keys}: with keys from the coordinator, its polls
 * ({@code key_polls}, {@code key_poll_failures}, {@code key_rotations}) and {@code keys_held}, else
 * empty.
 */
public record AgentStats(
    long forwarded,
    long received,
    long published,
    long routeLookups,
    long cacheHits,
    long filtersReported,
    Map<String, Long> dropped,
    Map<String, Long> reliable,
    Map<String, Long> keys) {
  /** A reliable-mode counter or gauge, 0 when absent. */
  public long reliable(String name) {
    return reliable.getOrDefault(name, 0L);
  }

  public long droppedTotal() {
    return dropped.values().stream().mapToLong(Long::longValue).sum();
  }
}
