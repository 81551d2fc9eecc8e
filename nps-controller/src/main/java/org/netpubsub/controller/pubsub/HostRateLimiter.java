package org.netpubsub.controller.pubsub;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A token bucket per host: each request takes a token; tokens refill at a steady rate up to the
 * burst size. Pure bookkeeping on a caller-supplied clock (nanoseconds); thread-safe.
 */
final class HostRateLimiter {
  private final double perNano;
  private final int burst;
  private final Map<String, Bucket> buckets = new HashMap<>();

  private static final class Bucket {
    double tokens;
    long lastNanos;

    Bucket(double tokens, long lastNanos) {
      this.tokens = tokens;
      this.lastNanos = lastNanos;
    }
  }

  HostRateLimiter(double perSecond, int burst) {
    this.perNano = perSecond / 1e9;
    this.burst = burst;
  }

  /** Takes a token for {@code host}: empty if granted, else the seconds until one is free. */
  synchronized OptionalLong acquire(String host, long nowNanos) {
    Bucket b = buckets.computeIfAbsent(host, h -> new Bucket(burst, nowNanos));
    b.tokens = Math.min(burst, b.tokens + Math.max(0, nowNanos - b.lastNanos) * perNano);
    b.lastNanos = nowNanos;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return OptionalLong.empty();
    }
    return OptionalLong.of(Math.max(1, (long) Math.ceil((1 - b.tokens) / perNano / 1e9)));
  }
}
