package org.netpubsub.edge.overlay;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The subscriber edges a publishing edge's views showed for each topic within the last {@code
 * graceMillis}, with their registered addresses. A NACK from an edge the current view lacks is
 * answered when that edge's registered address asked within the grace period: after a routing
 * broker's failover the view lacked the asking subscribers for over a second, and the NACKs for
 * what the new broker lost were refused until the receivers gave up (issue #25). The rule of {@link
 * NackBudget} is kept: the answer goes only to an address registered for the topic (within the
 * grace period), at the same bounded rate. Pure, not thread-safe; takes {@code now}.
 */
final class RecentSubscribers {
  // left: when a view first lacked the edge (present: the latest view shows it)
  private record Seen(InetSocketAddress address, boolean present, long left) {}

  private final long graceMillis;
  private final Map<String, Map<String, Seen>> byTopic = new HashMap<>(); // topic -> edge -> seen

  RecentSubscribers(long graceMillis) {
    if (graceMillis < 0) {
      throw new IllegalArgumentException("grace period must not be negative");
    }
    this.graceMillis = graceMillis;
  }

  /**
   * Takes the subscribers {@code view} shows (the edge's latest view, at {@code now}); an edge it
   * no longer shows is remembered for the grace period from now.
   */
  void observe(OverlayView view, long now) {
    for (Map.Entry<String, Map<String, Seen>> t : byTopic.entrySet()) {
      TopicState shown = view.topics().get(t.getKey());
      t.getValue()
          .replaceAll(
              (edge, s) ->
                  s.present() && (shown == null || !shown.subscribers().containsKey(edge))
                      ? new Seen(s.address(), false, now)
                      : s);
      t.getValue().values().removeIf(s -> !s.present() && now - s.left() > graceMillis);
    }
    byTopic.values().removeIf(Map::isEmpty);
    for (Map.Entry<String, TopicState> t : view.topics().entrySet()) {
      for (Map.Entry<String, Endpoint> e : t.getValue().subscribers().entrySet()) {
        byTopic
            .computeIfAbsent(t.getKey(), k -> new HashMap<>())
            .put(e.getKey(), new Seen(e.getValue().address(), true, now));
      }
    }
  }

  /**
   * The subscriber edge (not {@code self}) of {@code topic} whose registered address is {@code
   * from}, in the latest view or within the grace period since a view lacked it; empty when there
   * is none.
   */
  Optional<String> asker(String topic, InetSocketAddress from, String self, long now) {
    for (Map.Entry<String, Seen> e : byTopic.getOrDefault(topic, Map.of()).entrySet()) {
      Seen s = e.getValue();
      if (!e.getKey().equals(self)
          && s.address().equals(from)
          && (s.present() || now - s.left() <= graceMillis)) {
        return Optional.of(e.getKey());
      }
    }
    return Optional.empty();
  }

  /** Edges remembered, over all topics. */
  int size() {
    return byTopic.values().stream().mapToInt(Map::size).sum();
  }
}
