package org.netpubsub.controller.pubsub;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.function.ToLongFunction;

/**
 * Waiting filter work, served fairly across principals (pure logic; issue 27): the next item is the
 * oldest of the principal that used the least CPU in the window (asked at the moment of choosing,
 * since use changes while work waits), ties going round-robin: a principal served goes to the back.
 * So a principal with little use is served next whatever a flooder queued, and a lone principal is
 * always served (no starvation of one with nothing to compete against). At most {@code bound} items
 * wait; one key's entry lives only while it has items. Not thread-safe: {@link FilterWork} holds
 * its lock.
 */
final class FairQueue<T> {
  private final int bound;
  // insertion order is the round-robin order: a key goes to the back when served or re-added
  private final LinkedHashMap<String, ArrayDeque<T>> waiting = new LinkedHashMap<>();
  private int size;

  FairQueue(int bound) {
    if (bound < 1) {
      throw new IllegalArgumentException("bound must be positive");
    }
    this.bound = bound;
  }

  /** Adds {@code item} behind {@code key}'s others; false if {@code bound} items wait already. */
  boolean add(String key, T item) {
    if (size >= bound) {
      return false;
    }
    waiting.computeIfAbsent(key, k -> new ArrayDeque<>()).addLast(item);
    size++;
    return true;
  }

  /**
   * Removes and returns the oldest item of the key with the least {@code use}, the earliest in the
   * round-robin order among equals; null if nothing waits.
   */
  T poll(ToLongFunction<String> use) {
    String best = null;
    long least = Long.MAX_VALUE;
    for (String key : waiting.keySet()) {
      long u = use.applyAsLong(key);
      if (best == null || u < least) {
        best = key;
        least = u;
      }
    }
    if (best == null) {
      return null;
    }
    ArrayDeque<T> items = waiting.remove(best);
    T item = items.pollFirst();
    size--;
    if (!items.isEmpty()) {
      waiting.put(best, items); // to the back of the round-robin order
    }
    return item;
  }

  /** Removes {@code item} if it still waits (a request given up); true if it did. */
  boolean remove(String key, T item) {
    ArrayDeque<T> items = waiting.get(key);
    if (items == null || !items.remove(item)) {
      return false;
    }
    size--;
    if (items.isEmpty()) {
      waiting.remove(key);
    }
    return true;
  }

  int size() {
    return size;
  }

  /** Keys with items waiting (for tests). */
  int keys() {
    return waiting.size();
  }
}
