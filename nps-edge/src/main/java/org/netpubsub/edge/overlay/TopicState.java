package org.netpubsub.edge.overlay;

import java.util.Map;
import java.util.Optional;

/**
 * One topic in the tree: its assignment (if the leader made one), the topic znode's data version
 * (the leader's writes are conditional on it) and its endpoint entries.
 */
public record TopicState(
    Optional<Assignment> assignment,
    int version,
    Map<String, Endpoint> publishers,
    Map<String, Endpoint> subscribers) {
  public TopicState {
    publishers = Map.copyOf(publishers);
    subscribers = Map.copyOf(subscribers);
  }

  public boolean hasEndpoints() {
    return !publishers.isEmpty() || !subscribers.isEmpty();
  }
}
