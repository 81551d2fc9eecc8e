package org.netpubsub.edge.overlay;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The deadlines other sites' readers request of the topics an edge publishes (§2.4.2: the
 * subscriber's deadline selects the multi-path): per topic, the shortest {@code deadline_ms} among
 * its subscriber entries of other sites in a view. Pure.
 */
final class RemoteDeadlines {
  private RemoteDeadlines() {}

  /** Topic → shortest deadline of its subscriber entries whose site is not {@code site}. */
  static Map<String, Long> of(OverlayView view, String site) {
    Map<String, Long> out = new HashMap<>();
    view.topics().forEach((topic, t) -> shortest(t, site).ifPresent(d -> out.put(topic, d)));
    return Map.copyOf(out);
  }

  static Optional<Long> shortest(TopicState t, String site) {
    return t.subscribers().values().stream()
        .filter(e -> !e.site().equals(site))
        .flatMap(e -> e.deadlineMillis().stream())
        .min(Long::compare);
  }
}
