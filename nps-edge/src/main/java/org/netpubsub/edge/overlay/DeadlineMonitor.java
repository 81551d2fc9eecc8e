package org.netpubsub.edge.overlay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * DDS's deadline at the receiving edge: a topic declared with a deadline must see a message from
 * other sites at least every {@code deadline} ms once it has started; each silence longer than that
 * is one miss, reported when it is noticed (by {@link #overdue}) or when the late message arrives
 * (by {@link #observe}), never twice. Pure, not thread-safe; takes {@code now} in ms.
 */
public final class DeadlineMonitor {
  /** A missed deadline: {@code topic} was silent for {@code silentMillis} (> {@code deadline}). */
  public record Miss(String topic, long deadlineMillis, long silentMillis) {}

  private final Map<String, Long> deadlines;
  private final Map<String, long[]> last = new HashMap<>(); // topic -> {deadline, last, reported}

  /** The most topics watched: further topics matching a deadline filter are not. */
  static final int MAX_TOPICS = 4096;

  public DeadlineMonitor(Map<String, Long> deadlines) {
    this.deadlines = Map.copyOf(deadlines);
  }

  /** A message on {@code topic} arrived; a miss if it ends an unreported late silence. */
  public Optional<Miss> observe(String topic, long now) {
    long[] s = last.get(topic);
    if (s == null) {
      Optional<Long> d = deadline(topic);
      if (d.isPresent() && last.size() < MAX_TOPICS) { // arriving topics are remote input
        last.put(topic, new long[] {d.get(), now, 0});
      }
      return Optional.empty();
    }
    Optional<Miss> miss =
        s[2] == 0 && now - s[1] > s[0]
            ? Optional.of(new Miss(topic, s[0], now - s[1]))
            : Optional.empty();
    s[1] = now;
    s[2] = 0;
    return miss;
  }

  /** Topics silent past their deadline now, each once per silence. */
  public List<Miss> overdue(long now) {
    List<Miss> out = new ArrayList<>();
    last.forEach(
        (topic, s) -> {
          if (s[2] == 0 && now - s[1] > s[0]) {
            s[2] = 1;
            out.add(new Miss(topic, s[0], now - s[1]));
          }
        });
    return out;
  }

  private Optional<Long> deadline(String topic) {
    return deadlines.entrySet().stream()
        .filter(e -> TopicFilters.matches(e.getKey(), topic))
        .map(Map.Entry::getValue)
        .min(Long::compare);
  }
}
