package org.netpubsub.edge.overlay;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * Which deadline applies to a topic at this edge (§2.4.2): the shortest of the command line's
 * {@code --deadline FILTER=DURATION} entries matching it and of the per-topic deadlines the site's
 * endpoints declare while the edge runs (DDS readers' requested DEADLINE, writers' offered one).
 * Arriving messages are held to {@link #received} (the command line and local readers: what they
 * asked for); the direct path is taken for {@link #sent} (any of them). At most {@code maxTopics}
 * topics per side take a run-time deadline (the endpoints are local, but their topic names are
 * unbounded). Pure, not thread-safe.
 */
public final class DeadlineTable {
  /** Whose deadline a run-time entry is. */
  public enum Side {
    READERS,
    WRITERS
  }

  private final Map<String, Long> filters;
  private final int maxTopics;
  private final Map<Side, Map<String, Long>> runtime =
      Map.of(Side.READERS, new HashMap<>(), Side.WRITERS, new HashMap<>());

  public DeadlineTable(Map<String, Long> filters, int maxTopics) {
    this.filters = Map.copyOf(filters);
    this.maxTopics = maxTopics;
  }

  /**
   * Sets {@code topic}'s run-time deadline of {@code side} to {@code millis} (> 0), or removes it
   * ({@code null}); false when refused: a topic new to that side beyond {@code maxTopics}.
   */
  public boolean set(String topic, Side side, Long millis) {
    Map<String, Long> m = runtime.get(side);
    if (millis == null) {
      m.remove(topic);
      return true;
    }
    if (millis <= 0) {
      throw new IllegalArgumentException("deadline of '" + topic + "' must be > 0 ms");
    }
    if (!m.containsKey(topic) && m.size() >= maxTopics) {
      return false;
    }
    m.put(topic, millis);
    return true;
  }

  /** The deadline messages of {@code topic} from other sites must meet here, if any. */
  public Optional<Long> received(String topic) {
    return min(topic, Stream.of(runtime.get(Side.READERS).get(topic)));
  }

  /** The deadline that sends {@code topic} on the direct path too, if any. */
  public Optional<Long> sent(String topic) {
    return min(
        topic,
        Stream.of(runtime.get(Side.READERS).get(topic), runtime.get(Side.WRITERS).get(topic)));
  }

  private Optional<Long> min(String topic, Stream<Long> runtimeDeadlines) {
    Stream<Long> fromFilters =
        filters.entrySet().stream()
            .filter(e -> TopicFilters.matches(e.getKey(), topic))
            .map(Map.Entry::getValue);
    return Stream.concat(fromFilters, runtimeDeadlines.filter(d -> d != null)).min(Long::compare);
  }
}
