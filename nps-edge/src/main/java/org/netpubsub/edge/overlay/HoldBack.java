package org.netpubsub.edge.overlay;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Puts each (origin, topic) sequence back in order at the receiving edge: a reliable message that
 * arrives after a gap is held until the gap is repaired (by NACK) and then released in sequence
 * order. Without it a repaired message is delivered after the ones behind it, which breaks DDS's
 * and MQTT's order per writer (docs/overlay.md "Order").
 *
 * <p>Nothing is held forever: once the gap in front of the held messages is older than {@code
 * holdMillis} (the NACK logic's give-up time), or a sequence holds more than {@code maxEntries}
 * messages or {@code maxBytes} bytes, or all sequences together more than {@code maxTotalBytes},
 * the held messages up to the next gap are released and the numbers skipped are counted as {@link
 * #lost}. A best-effort message is never held (MQTT orders per topic and QoS; a best-effort DDS
 * sample has no order to keep) but fills its number, so it does not leave a gap. The sequences are
 * remote input: at most {@code maxKeys} are kept (the least recently used is released and forgotten
 * first) and one idle for {@code idleMillis} with nothing held is forgotten. A message of another
 * session of the origin (a restart), or more than {@code maxSpan} ahead, releases what is held and
 * starts again from it, as {@link ReceiveWindows} does. Numbers below the first of the sequence
 * (history sent to a late joiner) pass at once ({@link #late}); a repair that comes after its gap
 * was released is dropped ({@link #tooLate}): it was counted lost, and delivering it would break
 * the order. Pure, not thread-safe; {@code out} receives what to deliver now, in order.
 */
public final class HoldBack<T> {
  private record Key(String origin, String topic) {}

  /** A held message, or (item null) a best-effort one already delivered, filling its number. */
  private record Entry<T>(T item, int bytes, long at) {}

  private static final class State<T> {
    long session;
    long base; // the first number of the sequence: below it is a late joiner's history
    long next; // the lowest number neither delivered nor skipped
    long seen;
    long bytes;
    long oldest; // when the gap in front of the held entries was seen: the earliest held arrival
    final TreeMap<Long, Entry<T>> held = new TreeMap<>();
  }

  /** What a held entry costs besides its payload (map node, boxed key, record). */
  static final int ENTRY_OVERHEAD = 96;

  private final long holdMillis;
  private final long maxSpan;
  private final int maxEntries;
  private final long maxBytes;
  private final long maxTotalBytes;
  private final int maxKeys;
  private final long idleMillis;
  private final LinkedHashMap<Key, State<T>> states = new LinkedHashMap<>(16, 0.75f, true);
  private long totalBytes;
  private long lost;
  private long late;
  private long tooLate;
  private long duplicates;
  private long released; // messages released past a gap (time or size bound)
  private long evicted;

  public HoldBack(
      long holdMillis,
      long maxSpan,
      int maxEntries,
      long maxBytes,
      long maxTotalBytes,
      int maxKeys,
      long idleMillis) {
    if (holdMillis < 0 || maxSpan < 1 || maxEntries < 1 || maxBytes < 1 || maxKeys < 1) {
      throw new IllegalArgumentException(
          "holdMillis must be >= 0; maxSpan, maxEntries, maxBytes and maxKeys positive");
    }
    if (maxTotalBytes < maxBytes || idleMillis < 1) {
      throw new IllegalArgumentException("maxTotalBytes must be >= maxBytes, idleMillis positive");
    }
    this.holdMillis = holdMillis;
    this.maxSpan = maxSpan;
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.maxTotalBytes = maxTotalBytes;
    this.maxKeys = maxKeys;
    this.idleMillis = idleMillis;
  }

  /**
   * One message accepted by {@link ReceiveWindows} (not a duplicate): {@code reliable} ones may be
   * held; {@code bytes} is its size. What can be delivered now is appended to {@code out}.
   */
  public void offer(
      String origin,
      String topic,
      long session,
      long seq,
      boolean reliable,
      T item,
      int bytes,
      long now,
      List<T> out) {
    Key key = new Key(origin, topic);
    State<T> s = states.get(key);
    if (s == null || s.session != session || seq - s.next > maxSpan) {
      if (s == null) {
        if (states.size() >= maxKeys) {
          Iterator<State<T>> lru = states.values().iterator();
          flush(lru.next(), out); // released, not dropped: it was repaired or never will be
          lru.remove();
          evicted++;
        }
        s = new State<>();
        states.put(key, s);
      } else {
        flush(s, out);
      }
      s.session = session;
      s.base = seq;
      s.next = seq + 1;
      s.seen = now;
      out.add(item);
      return;
    }
    s.seen = now;
    if (seq == s.next && s.held.isEmpty()) { // the common case: in order, nothing held
      s.next++;
      out.add(item);
      return;
    }
    if (seq < s.base) {
      late++; // history, sent to a late joiner outside the live sequence
      out.add(item);
      return;
    }
    if (seq < s.next) {
      tooLate++; // its gap was released and counted lost: delivering it now would break order
      return;
    }
    if (s.held.containsKey(seq)) {
      duplicates++;
      return;
    }
    if (seq == s.next) {
      s.next++;
      out.add(item);
      drain(s, out);
      return;
    }
    // a gap in front of it
    Entry<T> e = reliable ? new Entry<>(item, bytes, now) : new Entry<>(null, 0, now);
    if (!reliable) {
      out.add(item);
    }
    if (s.held.isEmpty()) {
      s.oldest = now;
    }
    s.held.put(seq, e);
    long cost = e.bytes() + ENTRY_OVERHEAD;
    s.bytes += cost;
    totalBytes += cost;
    while (s.held.size() > maxEntries || s.bytes > maxBytes) {
      releaseFront(s, out);
    }
    while (totalBytes > maxTotalBytes) {
      releaseFront(oldestHolding(), out);
    }
  }

  /** Releases what waited past its bound; forgets sequences idle too long with nothing held. */
  public void due(long now, List<T> out) {
    // values() iteration does not count as access: the LRU order is kept
    states.values().removeIf(s -> s.held.isEmpty() && now - s.seen > idleMillis);
    for (State<T> s : states.values()) {
      while (!s.held.isEmpty() && now - s.oldest >= holdMillis) {
        releaseFront(s, out);
      }
    }
  }

  /** Numbers skipped when held messages were released past a gap that was never repaired. */
  public long lost() {
    return lost;
  }

  /** Messages below the first of their sequence (a late joiner's history), passed on at once. */
  public long late() {
    return late;
  }

  /** Messages that came after their gap was released (already counted lost): dropped. */
  public long tooLate() {
    return tooLate;
  }

  /** Second copies of a held number (dropped). */
  public long duplicates() {
    return duplicates;
  }

  /** Messages released past an unrepaired gap (its time, or a size bound). */
  public long released() {
    return released;
  }

  /** Sequences forgotten (their held messages released) to make room for new ones. */
  public long evicted() {
    return evicted;
  }

  /** Sequences kept now. */
  public int size() {
    return states.size();
  }

  /** Messages held now (best-effort placeholders included). */
  public int held() {
    int n = 0;
    for (State<T> s : states.values()) {
      n += s.held.size();
    }
    return n;
  }

  /** Bytes held now, overheads included. */
  public long heldBytes() {
    return totalBytes;
  }

  private void flush(State<T> s, List<T> out) {
    while (!s.held.isEmpty()) {
      releaseFront(s, out);
    }
  }

  /** Gives up the gap in front of the held entries and releases up to the next gap. */
  private void releaseFront(State<T> s, List<T> out) {
    long first = s.held.firstKey();
    lost += first - s.next;
    s.next = first;
    int before = out.size();
    drain(s, out);
    released += out.size() - before;
  }

  /** Releases held entries while they continue the sequence. */
  private void drain(State<T> s, List<T> out) {
    while (!s.held.isEmpty() && s.held.firstKey() == s.next) {
      Entry<T> e = s.held.pollFirstEntry().getValue();
      long cost = e.bytes() + ENTRY_OVERHEAD;
      s.bytes -= cost;
      totalBytes -= cost;
      if (e.item() != null) {
        out.add(e.item());
      }
      s.next++;
    }
    long oldest = Long.MAX_VALUE;
    for (Entry<T> e : s.held.values()) {
      oldest = Math.min(oldest, e.at());
    }
    s.oldest = oldest;
  }

  private State<T> oldestHolding() {
    State<T> best = null;
    for (Map.Entry<Key, State<T>> e : states.entrySet()) {
      State<T> s = e.getValue();
      if (!s.held.isEmpty() && (best == null || s.oldest < best.oldest)) {
        best = s;
      }
    }
    return best;
  }
}
