package org.netpubsub.edge.overlay;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The twin of {@link HoldBack} for its properties: the same rules written the plain way — held
 * messages in an unsorted list searched from scratch for every step, sizes summed again each time.
 * No key eviction, idle expiry or total-bytes bound (the properties set those out of reach).
 */
final class NaiveHoldBack<T> {
  private record Held<T>(long seq, T item, int bytes, long at) {}

  private static final class Seq<T> {
    long session;
    long base;
    long next;
    final List<Held<T>> held = new ArrayList<>();
  }

  private final long holdMillis;
  private final long maxSpan;
  private final int maxEntries;
  private final long maxBytes;
  private final Map<String, Seq<T>> seqs = new HashMap<>();
  long lost;

  NaiveHoldBack(long holdMillis, long maxSpan, int maxEntries, long maxBytes) {
    this.holdMillis = holdMillis;
    this.maxSpan = maxSpan;
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  void offer(
      String key,
      long session,
      long seq,
      boolean reliable,
      T item,
      int bytes,
      long now,
      List<T> out) {
    Seq<T> s = seqs.get(key);
    if (s == null || s.session != session || seq - s.next > maxSpan) {
      if (s != null) {
        while (!s.held.isEmpty()) {
          releaseFront(s, out);
        }
      }
      s = new Seq<>();
      seqs.put(key, s);
      s.session = session;
      s.base = seq;
      s.next = seq + 1;
      out.add(item);
      return;
    }
    if (seq < s.base) {
      out.add(item);
      return;
    }
    if (seq < s.next) {
      return;
    }
    for (Held<T> h : s.held) {
      if (h.seq() == seq) {
        return;
      }
    }
    if (seq == s.next) {
      out.add(item);
      s.next++;
      run(s, out);
      return;
    }
    if (!reliable) {
      out.add(item);
    }
    s.held.add(new Held<>(seq, reliable ? item : null, reliable ? bytes : 0, now));
    while (s.held.size() > maxEntries || heldBytes(s) > maxBytes) {
      releaseFront(s, out);
    }
  }

  void due(long now, List<T> out) {
    for (Seq<T> s : seqs.values()) {
      while (!s.held.isEmpty() && now - oldest(s) >= holdMillis) {
        releaseFront(s, out);
      }
    }
  }

  private void releaseFront(Seq<T> s, List<T> out) {
    long min = Long.MAX_VALUE;
    for (Held<T> h : s.held) {
      min = Math.min(min, h.seq());
    }
    lost += min - s.next;
    s.next = min;
    run(s, out);
  }

  private void run(Seq<T> s, List<T> out) {
    boolean found = true;
    while (found) {
      found = false;
      for (int i = 0; i < s.held.size(); i++) {
        Held<T> h = s.held.get(i);
        if (h.seq() == s.next) {
          s.held.remove(i);
          if (h.item() != null) {
            out.add(h.item());
          }
          s.next++;
          found = true;
          break;
        }
      }
    }
  }

  private long heldBytes(Seq<T> s) {
    long b = 0;
    for (Held<T> h : s.held) {
      b += h.bytes() + HoldBack.ENTRY_OVERHEAD;
    }
    return b;
  }

  private long oldest(Seq<T> s) {
    long o = Long.MAX_VALUE;
    for (Held<T> h : s.held) {
      o = Math.min(o, h.at());
    }
    return o;
  }
}
