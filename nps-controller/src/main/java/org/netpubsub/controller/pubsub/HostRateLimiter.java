package org.netpubsub.controller.pubsub;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A token bucket per sender (a principal and its source address, or a host for callers without
 * one): each request takes a token; tokens refill at a steady rate up to the burst size. Pure
 * bookkeeping on a caller-supplied clock (nanoseconds); thread-safe. The state is bounded: a bucket
 * that has refilled is the same as none and is dropped, and past {@code maxBuckets} the least
 * recently used bucket goes (issue 27: rotating keys must not grow memory).
 */
final class HostRateLimiter {
  static final int MAX_BUCKETS = 65_536;

  private final double perNano;
  private final int burst;
  private final int maxBuckets;
  private final Map<String, Bucket> buckets = new LinkedHashMap<>(16, 0.75f, true);

  private static final class Bucket {
    double tokens;
    long lastNanos;

    Bucket(double tokens, long lastNanos) {
      this.tokens = tokens;
      this.lastNanos = lastNanos;
    }

    double at(long nowNanos, double perNano, int burst) {
      return Math.min(burst, tokens + Math.max(0, nowNanos - lastNanos) * perNano);
    }
  }

  HostRateLimiter(double perSecond, int burst) {
    this(perSecond, burst, MAX_BUCKETS);
  }

  HostRateLimiter(double perSecond, int burst, int maxBuckets) {
    this.perNano = perSecond / 1e9;
    this.burst = burst;
    this.maxBuckets = maxBuckets;
  }

  /** Takes a token for {@code sender}: empty if granted, else the seconds until one is free. */
  synchronized OptionalLong acquire(String sender, long nowNanos) {
    expire(nowNanos);
    Bucket b = buckets.computeIfAbsent(sender, h -> new Bucket(burst, nowNanos));
    b.tokens = b.at(nowNanos, perNano, burst);
    b.lastNanos = nowNanos;
    if (buckets.size() > maxBuckets) {
      Iterator<String> eldest = buckets.keySet().iterator();
      eldest.next();
      eldest.remove();
    }
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return OptionalLong.empty();
    }
    return OptionalLong.of(Math.max(1, (long) Math.ceil((1 - b.tokens) / perNano / 1e9)));
  }

  /** Buckets held (for tests). */
  synchronized int size() {
    return buckets.size();
  }

  /** Drops refilled buckets from the least recently used end, until one is not full. */
  private void expire(long nowNanos) {
    Iterator<Bucket> it = buckets.values().iterator();
    while (it.hasNext()) {
      if (it.next().at(nowNanos, perNano, burst) < burst) {
        return;
      }
      it.remove();
    }
  }
}
