package org.netpubsub.edge.overlay;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The last {@code capacity} reliable (QoS ≥ 1) datagrams a publishing edge sent per topic, by
 * sequence number, for retransmission on NACK. Pure, not thread-safe.
 */
public final class SendBuffer {
  private final int capacity;
  private final Map<String, LinkedHashMap<Long, byte[]>> byTopic = new HashMap<>();

  public SendBuffer(int capacity) {
    if (capacity <= 0) {
      throw new IllegalArgumentException("buffer capacity must be positive");
    }
    this.capacity = capacity;
  }

  public void put(String topic, long seq, byte[] datagram) {
    LinkedHashMap<Long, byte[]> b = byTopic.computeIfAbsent(topic, k -> new LinkedHashMap<>());
    b.put(seq, datagram);
    if (b.size() > capacity) {
      b.remove(b.keySet().iterator().next());
    }
  }

  public Optional<byte[]> get(String topic, long seq) {
    LinkedHashMap<Long, byte[]> b = byTopic.get(topic);
    return b == null ? Optional.empty() : Optional.ofNullable(b.get(seq));
  }

  public int capacity() {
    return capacity;
  }
}
