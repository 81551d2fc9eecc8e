package org.netpubsub.edge.overlay;

import java.util.Map;
import java.util.Optional;

/** One topic in the tree: its assignment (if the leader made one) and its endpoint entries. */
public record TopicState(
    Optional<Assignment> assignment,
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
