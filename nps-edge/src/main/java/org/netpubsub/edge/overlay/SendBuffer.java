package org.netpubsub.edge.overlay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The last {@code capacity} reliable (QoS ≥ 1) datagrams a publishing edge sent per topic, by
 * sequence number, for retransmission on NACK; and tail probes: a receiver notices a lost message
 * only when a later one arrives, so after a topic's last message the newest one is sent again
 * {@code probeMillis}, 2×, 4×… later ({@code maxProbes} times): receivers drop it as a duplicate,
 * or recover it and NACK what was lost before it. Pure, not thread-safe; takes {@code now}.
 */
public final class SendBuffer {
  private final int capacity;
  private final Map<String, LinkedHashMap<Long, byte[]>> byTopic = new HashMap<>();
  private final Map<String, long[]> tails = new HashMap<>(); // topic -> {last seq, at, probes}
  private final long probeMillis;
  private final int maxProbes;

  /** A datagram to send again as a tail probe. */
  public record Probe(String topic, long seq, byte[] datagram) {}

  public SendBuffer(int capacity, long probeMillis, int maxProbes) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("buffer capacity must be positive");
    }
    this.capacity = capacity;
    this.probeMillis = probeMillis;
    this.maxProbes = maxProbes;
  }

  /** Buffers a datagram that was sent to other sites, and probes its tail from {@code now}. */
  public void put(String topic, long seq, byte[] datagram, long now) {
    tails.put(topic, new long[] {seq, now, 0});
    store(topic, seq, datagram);
  }

  /**
   * Buffers a datagram kept in its site (nobody elsewhere subscribed yet), for late joiners only:
   * no receiver can have lost it, so it is not probed, and an older tail stops being probed. A
   * probe of it could reach a late joiner through a routing broker before the history it is
   * replayed, and be delivered ahead of it.
   */
  public void keep(String topic, long seq, byte[] datagram) {
    tails.remove(topic);
    store(topic, seq, datagram);
  }

  private void store(String topic, long seq, byte[] datagram) {
    LinkedHashMap<Long, byte[]> b = byTopic.computeIfAbsent(topic, k -> new LinkedHashMap<>());
    b.put(seq, datagram);
    if (b.size() > capacity) {
      b.remove(b.keySet().iterator().next());
    }
  }

  /** The tail probes due now. */
  public List<Probe> probes(long now) {
    List<Probe> out = new ArrayList<>();
    for (var it = tails.entrySet().iterator(); it.hasNext(); ) {
      var e = it.next();
      long[] t = e.getValue();
      if (now - t[1] < probeMillis << t[2]) {
        continue;
      }
      get(e.getKey(), t[0]).ifPresent(d -> out.add(new Probe(e.getKey(), t[0], d)));
      if (++t[2] >= maxProbes) {
        it.remove();
      }
    }
    return out;
  }

  /** The newest {@code n} datagrams of {@code topic}, oldest first. */
  public List<byte[]> last(String topic, int n) {
    LinkedHashMap<Long, byte[]> b = byTopic.get(topic);
    if (b == null || n <= 0) {
      return List.of();
    }
    List<byte[]> all = new ArrayList<>(b.values());
    return List.copyOf(all.subList(Math.max(0, all.size() - n), all.size()));
  }

  /** Topics with buffered datagrams. */
  public java.util.Set<String> topics() {
    return java.util.Set.copyOf(byTopic.keySet());
  }

  public Optional<byte[]> get(String topic, long seq) {
    LinkedHashMap<Long, byte[]> b = byTopic.get(topic);
    return b == null ? Optional.empty() : Optional.ofNullable(b.get(seq));
  }

  public int capacity() {
    return capacity;
  }
}
