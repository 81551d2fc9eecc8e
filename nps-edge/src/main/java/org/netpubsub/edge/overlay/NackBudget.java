package org.netpubsub.edge.overlay;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Whom a publishing edge answers NACKs for, and how much (docs/security.md). A NACK is answered
 * only when it comes from the registered address of an edge subscribed to the topic (so the answer
 * never goes to an address a NACK names or forges), and each such edge gets at most {@code
 * bytesPerSecond} of retransmissions, in bursts of at most {@code burst} bytes (a token bucket): a
 * replayed NACK cannot make the edge send without bound. The buckets are kept for at most {@code
 * maxEdges} edges, the least recently used going first. Pure, not thread-safe; takes {@code now}.
 */
final class NackBudget {
  private final long bytesPerSecond;
  private final long burst;
  private final int maxEdges;
  private final LinkedHashMap<String, double[]> buckets; // edge -> {tokens, at ms}

  NackBudget(long bytesPerSecond, long burst, int maxEdges) {
    if (bytesPerSecond < 1 || burst < 1 || maxEdges < 1) {
      throw new IllegalArgumentException("NACK budget: rate, burst and edges must be positive");
    }
    this.bytesPerSecond = bytesPerSecond;
    this.burst = burst;
    this.maxEdges = maxEdges;
    this.buckets =
        new LinkedHashMap<>(16, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<String, double[]> eldest) {
            return size() > NackBudget.this.maxEdges;
          }
        };
  }

  /**
   * The subscriber edge (not {@code self}) of {@code topic} whose registered address is {@code
   * from}; empty when the sender is not one.
   */
  static Optional<String> asker(TopicState topic, InetSocketAddress from, String self) {
    if (topic == null) {
      return Optional.empty();
    }
    for (Map.Entry<String, Endpoint> e : topic.subscribers().entrySet()) {
      if (!e.getKey().equals(self) && e.getValue().address().equals(from)) {
        return Optional.of(e.getKey());
      }
    }
    return Optional.empty();
  }

  /** Spends {@code bytes} of {@code edge}'s budget if it has them; false (nothing spent) if not. */
  boolean take(String edge, int bytes, long now) {
    double[] b = buckets.computeIfAbsent(edge, k -> new double[] {burst, now});
    b[0] = Math.min(burst, b[0] + Math.max(0, now - b[1]) * bytesPerSecond / 1000.0);
    b[1] = now;
    if (b[0] < bytes) {
      return false;
    }
    b[0] -= bytes;
    return true;
  }

  int edges() {
    return buckets.size();
  }
}
