package org.netpubsub.controller.pubsub;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Each principal's CPU time in filter normalisation over a sliding window, and whether it is over
 * its share (pure logic, the clock given; issue 27). The window is {@link #BUCKETS} buckets: a
 * charge counts until its bucket leaves the window, so the window slides by a tenth of it. A key
 * over its budget learns how long until enough of its use leaves the window (Retry-After).
 *
 * <p>State is bounded and expires: a key not charged nor asked about for a whole window is
 * forgotten (its use has left the window anyway), and at most {@code maxKeys} are kept, the least
 * recently used one dropped first. Not thread-safe: {@link FilterWork} holds its lock.
 */
final class CpuShare {
  static final int BUCKETS = 10;

  private final long bucketNanos;
  private final long budgetNanos;
  private final int maxKeys;
  private final LinkedHashMap<String, Use> keys = new LinkedHashMap<>(16, 0.75f, true);

  /** One key's use: CPU nanoseconds per bucket, by the bucket's number (time / bucket length). */
  private static final class Use {
    final long[] nanos = new long[BUCKETS];
    final long[] bucket = new long[BUCKETS];
    long touched;

    long used(long now, long bucketNanos) {
      long current = Math.floorDiv(now, bucketNanos);
      long sum = 0;
      for (int i = 0; i < BUCKETS; i++) {
        if (bucket[i] > current - BUCKETS && bucket[i] <= current) {
          sum += nanos[i];
        }
      }
      return sum;
    }
  }

  /**
   * @param windowNanos the window's length (a multiple of {@link #BUCKETS} nanoseconds)
   * @param budgetNanos the CPU time one key may use in a window
   * @param maxKeys the most keys kept
   */
  CpuShare(long windowNanos, long budgetNanos, int maxKeys) {
    if (windowNanos < BUCKETS || budgetNanos <= 0 || maxKeys < 1) {
      throw new IllegalArgumentException("window, budget and key bound must be positive");
    }
    this.bucketNanos = windowNanos / BUCKETS;
    this.budgetNanos = budgetNanos;
    this.maxKeys = maxKeys;
  }

  long budgetNanos() {
    return budgetNanos;
  }

  long windowNanos() {
    return bucketNanos * BUCKETS;
  }

  /** CPU nanoseconds {@code key} used in the window ending at {@code now}. */
  long used(String key, long now) {
    expire(now);
    Use u = keys.get(key);
    return u == null ? 0 : u.used(now, bucketNanos);
  }

  /**
   * Empty if {@code key} is under its budget at {@code now}; else the nanoseconds until enough of
   * its use has left the window to bring it under.
   */
  OptionalLong over(String key, long now) {
    expire(now);
    Use u = keys.get(key);
    if (u == null) {
      return OptionalLong.empty();
    }
    u.touched = now;
    long used = u.used(now, bucketNanos);
    if (used < budgetNanos) {
      return OptionalLong.empty();
    }
    long current = Math.floorDiv(now, bucketNanos);
    // buckets leave the window oldest first: find the first whose leaving brings it under
    for (long b = current - BUCKETS + 1; b <= current; b++) {
      for (int i = 0; i < BUCKETS; i++) {
        if (u.bucket[i] == b) {
          used -= u.nanos[i];
        }
      }
      if (used < budgetNanos) {
        return OptionalLong.of((b + BUCKETS) * bucketNanos - now);
      }
    }
    return OptionalLong.of(windowNanos()); // unreachable: every bucket gone leaves 0
  }

  /** Adds {@code cpuNanos} of {@code key}'s use at {@code now}. */
  void charge(String key, long now, long cpuNanos) {
    expire(now);
    Use u = keys.get(key);
    if (u == null) {
      u = new Use();
      keys.put(key, u);
      if (keys.size() > maxKeys) {
        Iterator<String> eldest = keys.keySet().iterator();
        eldest.next();
        eldest.remove();
      }
    }
    u.touched = now;
    long b = Math.floorDiv(now, bucketNanos);
    int i = (int) Math.floorMod(b, BUCKETS);
    if (u.bucket[i] != b) {
      u.bucket[i] = b;
      u.nanos[i] = 0;
    }
    u.nanos[i] += Math.max(0, cpuNanos);
  }

  /** Keys kept now (for tests). */
  int size() {
    return keys.size();
  }

  /** Drops keys untouched for a window, least recently used first (access order). */
  private void expire(long now) {
    Iterator<Map.Entry<String, Use>> it = keys.entrySet().iterator();
    while (it.hasNext()) {
      if (now - it.next().getValue().touched < windowNanos()) {
        return;
      }
      it.remove();
    }
  }
}
