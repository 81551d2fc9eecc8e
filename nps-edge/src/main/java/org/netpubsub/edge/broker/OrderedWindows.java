package org.netpubsub.edge.broker;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The receiving half of reliable mode: per (origin, topic) the sender's session and sequence. A
 * message is delivered only when every earlier number was delivered, skipped (not sent to this
 * edge) or given up, so order per (origin, topic) holds across repairs; later numbers wait. Gaps
 * are NACKed at once and again every {@code retryMillis}; after {@code tries} NACKs without
 * progress the missing numbers are given up (counted lost) and what waits behind them delivered.
 * Duplicates (retransmissions that crossed, repeated datagrams) are dropped. The first message or
 * heartbeat of a session opens its window, and since that message may have overtaken or outlived
 * earlier ones meant for this edge, the numbers before it (up to {@code maxGap}) are asked about
 * too ("before" NACKs: the origin resends those this edge was a target of and skips the others);
 * numbers before the first one seen that cannot be had are not counted lost ({@link #unknown}):
 * they may never have been ours. A new session (the origin restarted) gives up what the old one
 * still missed; a jump of {@code maxGap} or more is given up at once. Pure, not thread-safe; takes
 * {@code now} in milliseconds.
 */
final class OrderedWindows {
  /**
   * Ask {@code origin} (at {@code at}) for {@code topic}'s numbers {@code from..to}; {@code
   * before}: they precede the first number this edge saw, so only those sent to this edge are
   * wanted.
   */
  record Nack(
      String origin,
      long session,
      String topic,
      long from,
      long to,
      InetSocketAddress at,
      boolean before) {}

  /**
   * What a step yields: messages to publish now, in order, and NACKs to send; {@code duplicate}:
   * the message was one already had.
   */
  record Step(List<EdgeMessage> deliver, List<Nack> nacks, boolean duplicate) {
    static Step empty() {
      return new Step(new ArrayList<>(), new ArrayList<>(), false);
    }
  }

  private record Key(String origin, String topic) {}

  private static final class Window {
    final long session;
    final long start; // the first number seen: below it, a number may never have been ours
    InetSocketAddress at;
    long next; // the first number neither delivered nor resolved
    long max; // the highest number known to exist
    final TreeMap<Long, EdgeMessage> held = new TreeMap<>(); // arrived, above next
    final TreeSet<Long> resolved = new TreeSet<>(); // skipped or given up, above next
    long askedAt;
    int tries;

    Window(long session, long first, long next, InetSocketAddress at) {
      this.session = session;
      this.start = first;
      this.next = next;
      this.max = first - 1;
      this.at = at;
    }

    long missing() {
      return max < next ? 0 : max - next + 1 - held.size() - resolved.size();
    }
  }

  private final int maxGap;
  private final long retryMillis;
  private final int tries;
  // access order: when full, the least recently used window goes (remote input is bounded)
  private final LinkedHashMap<Key, Window> windows = new LinkedHashMap<>(16, 0.75f, true);
  private final int maxWindows;
  private long evicted;
  private long lost;
  private long unknown;
  private long duplicates;
  private long recovered;

  /** The most windows kept by default. */
  static final int MAX_WINDOWS = 16_384;

  OrderedWindows(int maxGap, long retryMillis, int tries) {
    this(maxGap, retryMillis, tries, MAX_WINDOWS);
  }

  /**
   * As above, keeping at most {@code maxWindows} windows: a new one beyond that evicts the least
   * recently used, giving up what it still missed and delivering what it held. (Windows do not
   * expire by age: a window opened again would ask its origin for the numbers before, again.)
   */
  OrderedWindows(int maxGap, long retryMillis, int tries, int maxWindows) {
    if (maxGap < 1 || maxGap > RepairCodec.MAX_RANGE || maxWindows < 1) {
      throw new IllegalArgumentException(
          "maxGap must be 1.." + RepairCodec.MAX_RANGE + ", maxWindows positive");
    }
    this.maxWindows = maxWindows;
    this.maxGap = maxGap;
    this.retryMillis = retryMillis;
    this.tries = tries;
  }

  /** A sequenced message from {@code at}. */
  Step accept(EdgeMessage m, long session, InetSocketAddress at, long now) {
    Step step = Step.empty();
    Window w = window(m.origin(), m.topic(), session, m.sequence(), at, now, step);
    w.at = at;
    long seq = m.sequence();
    if (seq < w.next || w.held.containsKey(seq) || w.resolved.contains(seq)) {
      duplicates++;
      return new Step(step.deliver(), step.nacks(), true);
    }
    if (seq - w.next >= maxGap) {
      giveUp(w, seq - 1, step); // more than the sender could still hold
      w.max = Math.max(w.max, seq - 1);
    }
    if (seq > w.max) {
      if (seq > w.max + 1) {
        step.nacks().add(new Nack(m.origin(), session, m.topic(), w.max + 1, seq - 1, at, false));
        w.askedAt = now;
        w.tries = Math.max(w.tries, 1);
      }
      w.max = seq;
    } else {
      recovered++;
    }
    w.held.put(seq, m);
    drain(w, now, step);
    return step;
  }

  /** {@code origin}'s heartbeat: {@code topic}'s last number is {@code last}. */
  Step heartbeat(
      String origin, long session, String topic, long last, InetSocketAddress at, long now) {
    Step step = Step.empty();
    Window w = window(origin, topic, session, last, at, now, step);
    w.at = at;
    if (last > w.max) {
      long from = Math.max(w.max + 1, last - maxGap + 1);
      if (from > w.max + 1) {
        giveUp(w, from - 1, step); // more than a NACK can name: the older ones are lost
      }
      step.nacks().add(new Nack(origin, session, topic, from, last, at, false));
      w.max = last;
      w.askedAt = now;
      w.tries = Math.max(w.tries, 1);
    }
    return step;
  }

  /** The origin answered {@code from..to}: skipped (not for us) or gone ({@code lost}). */
  Step resolve(
      String origin, long session, String topic, long from, long to, boolean gone, long now) {
    Step step = Step.empty();
    Window w = windows.get(new Key(origin, topic));
    if (w == null || w.session != session) {
      return step;
    }
    for (long s = Math.max(from, w.next); s <= Math.min(to, w.max); s++) {
      if (!w.held.containsKey(s) && w.resolved.add(s) && gone) {
        countLost(w, s);
      }
    }
    drain(w, now, step);
    return step;
  }

  /** NACKs to repeat now; numbers asked for {@code tries} times without progress are given up. */
  Step due(long now) {
    Step step = Step.empty();
    for (Map.Entry<Key, Window> e : windows.entrySet()) {
      Window w = e.getValue();
      if (w.missing() == 0 || now - w.askedAt < retryMillis) {
        continue;
      }
      if (w.tries >= tries) {
        giveUp(w, w.max, step);
        continue;
      }
      w.tries++;
      w.askedAt = now;
      long runFrom = -1;
      for (long s = w.next; s <= w.max + 1; s++) {
        boolean missing = s <= w.max && !w.held.containsKey(s) && !w.resolved.contains(s);
        if (runFrom >= 0 && (!missing || s == w.start)) { // runs do not cross the start
          Key k = e.getKey();
          step.nacks()
              .add(
                  new Nack(
                      k.origin(), w.session, k.topic(), runFrom, s - 1, w.at, runFrom < w.start));
          runFrom = -1;
        }
        if (missing && runFrom < 0) {
          runFrom = s;
        }
      }
    }
    return step;
  }

  /** Numbers given up: gone at the origin, or never repaired. */
  long lost() {
    return lost;
  }

  /** Numbers before a window's first one that could not be had (perhaps never ours). */
  long unknown() {
    return unknown;
  }

  /** Windows evicted to make room for new ones. */
  long evicted() {
    return evicted;
  }

  long duplicates() {
    return duplicates;
  }

  /** Numbers that arrived after a later one (retransmitted). */
  long recovered() {
    return recovered;
  }

  /** Messages waiting plus numbers missing, over all windows. */
  long pending() {
    long n = 0;
    for (Window w : windows.values()) {
      n += w.held.size() + w.missing();
    }
    return n;
  }

  private Window window(
      String origin,
      String topic,
      long session,
      long first,
      InetSocketAddress at,
      long now,
      Step step) {
    Key k = new Key(origin, topic);
    Window w = windows.get(k);
    if (w != null && w.session == session) {
      return w;
    }
    if (w != null) {
      giveUp(w, w.max, step); // the origin restarted: its old numbers cannot be repaired
    }
    if (w == null && windows.size() >= maxWindows) {
      Window eldest = windows.pollFirstEntry().getValue();
      giveUp(eldest, eldest.max, step); // delivers what it held, in order
      evicted++;
    }
    w = new Window(session, first, Math.max(1, first - maxGap + 1), at);
    windows.put(k, w);
    if (w.next < first) { // were any of the earlier numbers ours?
      step.nacks().add(new Nack(origin, session, topic, w.next, first - 1, at, true));
      w.max = first - 1;
      w.askedAt = now;
      w.tries = 1;
    }
    return w;
  }

  private void countLost(Window w, long seq) {
    if (seq >= w.start) {
      lost++;
    } else {
      unknown++;
    }
  }

  /** Gives up every missing number up to {@code upTo} and delivers what waited behind them. */
  private void giveUp(Window w, long upTo, Step step) {
    while (w.next <= upTo) {
      EdgeMessage m = w.held.remove(w.next);
      if (m != null) {
        step.deliver().add(m);
      } else if (!w.resolved.remove(w.next)) {
        countLost(w, w.next);
      }
      w.next++;
    }
    w.tries = 0;
    drainOnly(w, step);
  }

  private void drain(Window w, long now, Step step) {
    long before = w.next;
    drainOnly(w, step);
    if (w.next != before) {
      w.tries = w.missing() > 0 ? 1 : 0; // progress: the rest gets its full tries
      w.askedAt = now;
    }
  }

  private static void drainOnly(Window w, Step step) {
    while (true) {
      EdgeMessage m = w.held.remove(w.next);
      if (m != null) {
        step.deliver().add(m);
      } else if (!w.resolved.remove(w.next)) {
        break;
      }
      w.next++;
    }
    w.resolved.headSet(w.next).clear();
  }
}
