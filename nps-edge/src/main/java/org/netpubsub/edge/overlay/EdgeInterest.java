package org.netpubsub.edge.overlay;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * Which endpoint entries an edge broker should hold, from what its local broker shows: a publisher
 * entry per topic a local client published on within the idle time (MQTT has no publisher
 * declaration); a subscriber entry per exact local filter, and per topic in the tree that a local
 * wildcard filter matches (wildcards create no topics: they join the topics publishers create, and
 * only those someone publishes on). Pure, not thread-safe; takes {@code now} in milliseconds.
 */
public final class EdgeInterest {
  /** One endpoint entry of this edge. */
  public record Entry(String topic, ZnodePaths.Role role) {}

  private final long idleMillis;
  private final Set<String> filters = new HashSet<>();
  private final Map<String, Long> published = new HashMap<>();
  private final Set<String> declared = new HashSet<>(); // DDS DataWriters: held while present

  public EdgeInterest(long idleMillis) {
    if (idleMillis <= 0) {
      throw new IllegalArgumentException("idle time must be positive");
    }
    this.idleMillis = idleMillis;
  }

  public void filter(String filter, boolean present) {
    if (present) {
      filters.add(filter);
    } else {
      filters.remove(filter);
    }
  }

  /** A site declares publishers on {@code topic} (DDS writers), or no longer does. */
  public void declared(String topic, boolean present) {
    if (present) {
      declared.add(topic);
    } else {
      declared.remove(topic);
    }
  }

  /** A local client published on {@code topic}; true when that is new (an entry to create). */
  public boolean published(String topic, long now) {
    return published.put(topic, now) == null;
  }

  public Set<String> filters() {
    return Set.copyOf(filters);
  }

  /** Topics published on within the idle time (as of the last {@link #desired}) or since. */
  public Set<String> publishedTopics() {
    Set<String> out = new HashSet<>(published.keySet());
    out.addAll(declared);
    return out;
  }

  /** True when some filter has a wildcard: the edge then needs the topic index to match it. */
  public boolean hasWildcards() {
    return filters.stream().anyMatch(f -> f.indexOf('+') >= 0 || f.indexOf('#') >= 0);
  }

  /**
   * The entries to hold now; forgets publishers idle for longer than the idle time. {@code index}
   * lists the tree's topics for wildcard filters (only whether a topic has publishers is used).
   */
  public Set<Entry> desired(OverlayView index, long now) {
    published.values().removeIf(t -> now - t > idleMillis);
    Set<Entry> out = new HashSet<>();
    published.keySet().forEach(t -> out.add(new Entry(t, ZnodePaths.Role.PUBLISHER)));
    declared.forEach(t -> out.add(new Entry(t, ZnodePaths.Role.PUBLISHER)));
    for (String f : filters) {
      if (f.indexOf('+') < 0 && f.indexOf('#') < 0) {
        out.add(new Entry(f, ZnodePaths.Role.SUBSCRIBER));
      } else {
        for (Map.Entry<String, TopicState> t : index.topics().entrySet()) {
          // only topics someone publishes: else this entry alone would keep the topic alive
          if (t.getValue().hasPublishers() && TopicFilters.matches(f, t.getKey())) {
            out.add(new Entry(t.getKey(), ZnodePaths.Role.SUBSCRIBER));
          }
        }
      }
    }
    return out;
  }
}
