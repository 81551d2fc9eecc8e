package org.netpubsub.edge.dds;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which dropped samples to log (issue 25: one log line per topic, never a flood): the first drop of
 * a (reason, topic) is logged at once, later ones at most once per {@code intervalMillis}, that
 * line counting the drops since the previous one. At most {@code maxTopics} (reason, topic) pairs
 * are remembered, the least recently dropped going first (a flood of junk topic names then costs
 * bounded memory and, per name, one line). Pure, not thread-safe; takes {@code now}.
 */
public final class DropLog {
  /** A line to log: {@code count} drops of {@code reason} on {@code topic} since the last line. */
  public record Line(String reason, String topic, long count) {}

  private record Pair(String reason, String topic) {}

  private final long intervalMillis;
  private final LinkedHashMap<Pair, long[]> pairs; // -> {last line at, drops since}

  public DropLog(long intervalMillis, int maxTopics) {
    if (intervalMillis < 1 || maxTopics < 1) {
      throw new IllegalArgumentException("drop log: interval and topics must be positive");
    }
    this.intervalMillis = intervalMillis;
    this.pairs =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Pair, long[]> eldest) {
            return size() > maxTopics;
          }
        };
  }

  /** One drop; the line to log now, if any. */
  public Optional<Line> dropped(String reason, String topic, long now) {
    Pair p = new Pair(reason, topic);
    long[] s = pairs.get(p);
    if (s == null) {
      pairs.put(p, new long[] {now, 0});
      return Optional.of(new Line(reason, topic, 1));
    }
    s[1]++;
    if (now - s[0] < intervalMillis) {
      return Optional.empty();
    }
    long count = s[1];
    s[0] = now;
    s[1] = 0;
    return Optional.of(new Line(reason, topic, count));
  }
}
