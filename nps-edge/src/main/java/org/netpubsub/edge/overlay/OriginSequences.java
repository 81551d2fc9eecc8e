package org.netpubsub.edge.overlay;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The numbers a publishing edge gives its messages: one run's session (non-zero; receivers tell a
 * restart by it) and per topic a sequence from a base. Both are drawn from {@link SecureRandom}, so
 * someone who saw no datagram of this edge cannot guess a number its receivers or its send buffer
 * would take. Thread-safe.
 */
final class OriginSequences {
  private static final SecureRandom RANDOM = new SecureRandom();

  private final long session;
  private final long base = RANDOM.nextLong(1, 1L << 62); // room for 2^62 messages per topic
  private final Map<String, Long> next = new ConcurrentHashMap<>(); // local topics only

  OriginSequences() {
    long s;
    do {
      s = RANDOM.nextLong();
    } while (s == 0);
    session = s;
  }

  long session() {
    return session;
  }

  /** The next number of {@code topic}: the base first, then one more each time. */
  long next(String topic) {
    return next.merge(topic, base, (a, b) -> a + 1);
  }
}
