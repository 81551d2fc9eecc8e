package org.netpubsub.controller.nbi;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.netpubsub.network.nbi.NbiTopic;

/**
 * Packet-ins per northbound topic they matched ({@code nps_nbi_topic_packet_ins_total{topic}}). The
 * topics are the ones apps registered, so their number is bounded by the registrations; since apps
 * may register new topics for as long as the controller runs, the count is capped anyway: after
 * {@code capacity} distinct topics, packet-ins of further ones are counted under {@link #OTHER}.
 * Counts are never dropped (a Prometheus counter must not go back), so a topic keeps its count
 * after its app unsubscribes.
 */
final class TopicCounts {
  /** The most topics counted by name. */
  static final int CAPACITY = 1024;

  /** The label of packet-ins of topics beyond the cap ({@code *} or field=value never reads so). */
  static final String OTHER = "other";

  private final int capacity;
  private final Map<NbiTopic, LongAdder> counts = new ConcurrentHashMap<>();
  private final LongAdder other = new LongAdder();

  TopicCounts(int capacity) {
    this.capacity = capacity;
  }

  /** One packet-in that matched {@code topics}. */
  void count(Collection<NbiTopic> topics) {
    for (NbiTopic t : topics) {
      LongAdder a = counts.get(t);
      (a != null ? a : create(t)).increment();
    }
  }

  private synchronized LongAdder create(NbiTopic t) {
    LongAdder a = counts.get(t);
    if (a == null && counts.size() >= capacity) {
      return other;
    }
    return a != null ? a : counts.computeIfAbsent(t, k -> new LongAdder());
  }

  /**
   * Every topic counted, by its text ({@link NbiTopic#toString}), the {@code registered} ones not
   * matched yet at 0 (while under the cap: a dashboard finds their series from the start), and
   * {@link #OTHER} once used.
   */
  Map<String, Long> snapshot(Collection<NbiTopic> registered) {
    Map<String, Long> out = new TreeMap<>();
    counts.forEach((t, n) -> out.merge(t.toString(), n.sum(), Long::sum));
    for (NbiTopic t : registered) {
      if (out.size() < capacity) {
        out.putIfAbsent(t.toString(), 0L);
      }
    }
    long beyond = other.sum();
    if (beyond > 0) {
      out.put(OTHER, beyond);
    }
    return out;
  }
}
