package org.netpubsub.edge.overlay;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The union of many small views (one per cached topic, or per topic of the index), kept up to date
 * part by part. A burst of joins changes a few topics at a time while a routing broker holds
 * hundreds: replacing only the changed parts keeps each rebuild of the view to the changed topics
 * plus one linear copy, where merging every part anew sorted every topic again (it took most of a
 * routing broker's CPU in a burst). Not thread-safe: the tree's updater owns it.
 */
final class MergedTopics {
  private final Map<String, OverlayView> parts = new HashMap<>();
  private final TreeMap<String, TopicState> topics = new TreeMap<>();
  private int malformed;

  /** Sets the part under {@code key} (a topic name), replacing what it held before. */
  void put(String key, OverlayView part) {
    remove(key);
    parts.put(key, part);
    topics.putAll(part.topics());
    malformed += part.malformed();
  }

  void remove(String key) {
    OverlayView old = parts.remove(key);
    if (old != null) {
      topics.keySet().removeAll(old.topics().keySet());
      malformed -= old.malformed();
    }
  }

  /** Keeps only the parts whose keys are in {@code keys}. */
  void retain(Collection<String> keys) {
    for (String k : parts.keySet().stream().filter(k -> !keys.contains(k)).toList()) {
      remove(k);
    }
  }

  /** The merged view with the brokers (and malformed count) of {@code brokerPart}. */
  OverlayView view(OverlayView brokerPart) {
    return new OverlayView(topics, brokerPart.brokers(), malformed + brokerPart.malformed());
  }
}
