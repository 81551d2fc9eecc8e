package org.netpubsub.edge.overlay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * DDS's deadline at the receiving edge: a topic declared with a deadline must see a message from
 * other sites at least every {@code deadline} ms once it has started; each silence longer than that
 * is one miss, reported when it is noticed (by {@link #overdue}) or when the late message arrives
 * (by {@link #observe}), never twice. A topic's deadline may change while the edge runs (DDS
 * readers come and go: {@link #changed}). Pure, not thread-safe; takes {@code now} in ms.
 */
public final class DeadlineMonitor {
  /** A missed deadline: {@code topic} was silent for {@code silentMillis} (> {@code deadline}). */
  public record Miss(String topic, long deadlineMillis, long silentMillis) {}

  private final Function<String, Optional<Long>> deadlines;
  private final Map<String, long[]> last = new HashMap<>(); // topic -> {deadline, last, reported}

  /** The most topics watched: further topics matching a deadline filter are not. */
  static final int MAX_TOPICS = 4096;

  /** Deadlines by topic filter, fixed. */
  public DeadlineMonitor(Map<String, Long> deadlines) {
    DeadlineTable t = new DeadlineTable(deadlines, 0);
    this.deadlines = t::received;
  }

  /** {@code deadlines} gives a topic's deadline now; call {@link #changed} when it changes. */
  public DeadlineMonitor(Function<String, Optional<Long>> deadlines) {
    this.deadlines = deadlines;
  }

  /**
   * {@code topic}'s deadline changed: a watched topic takes the new one (its silence so far counts
   * against it) or, without one, is no longer watched; others start at their next message.
   */
  public void changed(String topic) {
    long[] s = last.get(topic);
    if (s != null) {
      Optional<Long> d = deadlines.apply(topic);
      if (d.isPresent()) {
        s[0] = d.get();
      } else {
        last.remove(topic);
      }
    }
  }

  /** A message on {@code topic} arrived; a miss if it ends an unreported late silence. */
  public Optional<Miss> observe(String topic, long now) {
    long[] s = last.get(topic);
    if (s == null) {
      Optional<Long> d = deadlines.apply(topic);
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
}
