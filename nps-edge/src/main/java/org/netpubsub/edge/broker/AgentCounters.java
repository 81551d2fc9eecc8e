package org.netpubsub.edge.broker;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Thread-safe counters behind {@link AgentStats}. */
final class AgentCounters {
  final LongAdder forwarded = new LongAdder();
  final LongAdder received = new LongAdder();
  final LongAdder published = new LongAdder();
  final LongAdder routeLookups = new LongAdder();
  final LongAdder cacheHits = new LongAdder();
  final LongAdder filtersReported = new LongAdder();
  private final ConcurrentHashMap<String, LongAdder> dropped = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, LongAdder> reliable = new ConcurrentHashMap<>();

  void drop(String reason) {
    dropped.computeIfAbsent(reason, k -> new LongAdder()).increment();
  }

  /** A reliable-mode event (docs/edge.md): NACKs, retransmissions, heartbeats, replays. */
  void reliable(String event) {
    reliable.computeIfAbsent(event, k -> new LongAdder()).increment();
  }

  /**
   * The snapshot, with {@code gauges} (reliable mode's state) added to the reliable counters, and
   * the key poller's {@code keys}.
   */
  AgentStats snapshot(Map<String, Long> gauges, Map<String, Long> keys) {
    Map<String, Long> d = new TreeMap<>();
    dropped.forEach((k, v) -> d.put(k, v.sum()));
    Map<String, Long> r = new TreeMap<>(gauges);
    reliable.forEach((k, v) -> r.put(k, v.sum()));
    return new AgentStats(
        forwarded.sum(),
        received.sum(),
        published.sum(),
        routeLookups.sum(),
        cacheHits.sum(),
        filtersReported.sum(),
        Collections.unmodifiableMap(d),
        Collections.unmodifiableMap(r),
        Map.copyOf(keys));
  }
}
