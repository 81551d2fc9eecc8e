package org.netpubsub.edge.overlay;

import java.util.Map;
import java.util.Optional;

/**
 * One topic in the tree: its assignment (if the leader made one), the topic znode's data version
 * (the leader's writes are conditional on it), its endpoint entries, and whether its {@code pub}
 * and {@code sub} containers exist. A topic index (docs/overlay.md, <i>What each role watches</i>)
 * sees the containers but not the entries under them: ZooKeeper reaps a container once its last
 * entry is gone, so an existing container means "has such endpoints" (until the reaper runs).
 */
public record TopicState(
    Optional<Assignment> assignment,
    int version,
    Map<String, Endpoint> publishers,
    Map<String, Endpoint> subscribers,
    boolean publisherNode,
    boolean subscriberNode) {
  public TopicState {
    publishers = Map.copyOf(publishers);
    subscribers = Map.copyOf(subscribers);
  }

  /** A topic with its entries known (containers implied by them). */
  public TopicState(
      Optional<Assignment> assignment,
      int version,
      Map<String, Endpoint> publishers,
      Map<String, Endpoint> subscribers) {
    this(assignment, version, publishers, subscribers, false, false);
  }

  public boolean hasEndpoints() {
    return hasPublishers() || !subscribers.isEmpty() || subscriberNode;
  }

  public boolean hasPublishers() {
    return !publishers.isEmpty() || publisherNode;
  }
}
