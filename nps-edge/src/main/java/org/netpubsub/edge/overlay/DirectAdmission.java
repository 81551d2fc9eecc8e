package org.netpubsub.edge.overlay;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * Which local topics also take the direct edge-to-edge path (§2.4.2): those declared with a
 * deadline, up to {@code max} of them, first come; counted as admitted or refused once per topic.
 * Thread-safe.
 */
final class DirectAdmission {
  private final Set<String> filters;
  private final int max;
  private final Counters counters;
  private final Set<String> direct = ConcurrentHashMap.newKeySet();
  private final Set<String> refused = ConcurrentHashMap.newKeySet();

  DirectAdmission(Map<String, Long> deadlines, int max, Counters counters) {
    this.filters = Set.copyOf(deadlines.keySet());
    this.max = max;
    this.counters = counters;
  }

  /** Whether {@code topic} takes the direct path; decided at its first message. */
  synchronized boolean admit(String topic) {
    if (direct.contains(topic)) {
      return true;
    }
    if (refused.contains(topic)
        || filters.stream().noneMatch(f -> TopicFilters.matches(f, topic))) {
      return false;
    }
    if (direct.size() < max) {
      direct.add(topic);
      counters.add("direct_admitted");
      return true;
    }
    refused.add(topic);
    counters.add("direct_refused");
    return false;
  }

  /** Whether {@code topic} was admitted (never decides). */
  boolean admitted(String topic) {
    return direct.contains(topic);
  }
}
