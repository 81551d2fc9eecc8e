package org.netpubsub.controller.southbound;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns for TLS handshakes: at most {@code limit} connections at once have their handshake
 * processed; the others wait, in arrival order per source (the peer's IP address), and free turns
 * go round-robin across the sources that wait. Pure (no I/O, no clock); thread-safe.
 *
 * <p>Why turns: Open vSwitch gives a connection max(1, backoff) seconds (1 s at first, 8 s at most)
 * for TCP, TLS and the controller's HELLO together, and closes it if they are not done. After
 * ovs-vswitchd restarts, every bridge connects in the same millisecond. Handshakes processed side
 * by side on the controller's loop all finish together, after the sum of their CPU work; when the
 * controller gets little CPU (a loaded machine), that sum exceeds Open vSwitch's deadline, every
 * attempt is abandoned with its work wasted, and the bridges come back together for the next round:
 * no switch connects (docs/testing-load-failures.md, "Load failures traced", stop 41). In turns,
 * the first handshakes finish after their own work, so every round connects some switches.
 *
 * <p>Why per source: a peer that sends a ClientHello and stalls holds a turn for the whole lease,
 * so with one queue in arrival order a few such connections queued ahead delayed every switch past
 * Open vSwitch's deadline. A free turn goes to the waiting source holding the fewest turns (ties:
 * the one longest in the rotation since it last got a turn), so a source with waiting parties gets
 * a turn before a source that holds one gets a second: one address gets at most its share, and a
 * switch at another address waits about one lease. One source alone still gets every turn (the test
 * bed's bridges all connect from 127.0.0.1). At most {@code maxWaitingPerSource} parties wait per
 * source and {@code maxWaiting} in all; {@link #request} refuses the rest (the caller closes them).
 * Sources with nothing waiting or running are forgotten.
 *
 * <p>A turn is asked for by {@link #request}; a turn ends with {@link #end} (handshake done or
 * failed, connection closed, or the turn's time is up — the caller's lease, so a peer that stalls
 * cannot keep one). Each end returns the waiting parties whose turn begins now, to be started by
 * the caller outside any lock.
 */
final class HandshakeTurns<T> {
  /** What {@link #request} decided. */
  enum Outcome {
    BEGIN,
    WAIT,
    REFUSED
  }

  private final int limit;
  private final int maxWaitingPerSource;
  private final int maxWaiting;

  /** Running party to its source, and turns held per source (no zero counts kept). */
  private final Map<T, Object> running = new HashMap<>();

  private final Map<Object, Integer> runningBySource = new HashMap<>();

  /** Waiting party to its source; per source its queue, in rotation order (no empty queues). */
  private final Map<T, Object> waitingSource = new HashMap<>();

  private final LinkedHashMap<Object, ArrayDeque<T>> queues = new LinkedHashMap<>();

  HandshakeTurns(int limit, int maxWaitingPerSource, int maxWaiting) {
    if (limit < 1) {
      throw new IllegalArgumentException("at least one handshake at a time: " + limit);
    }
    if (maxWaitingPerSource < 0 || maxWaiting < 0) {
      throw new IllegalArgumentException(
          "negative waiting bound: " + maxWaitingPerSource + ", " + maxWaiting);
    }
    this.limit = limit;
    this.maxWaitingPerSource = maxWaitingPerSource;
    this.maxWaiting = maxWaiting;
  }

  /**
   * {@code party} from {@code source} asks for a turn (a party asks once): it begins now, waits, or
   * is refused (its source or the whole queue is full; it holds and awaits nothing).
   */
  synchronized Outcome request(Object source, T party) {
    if (running.containsKey(party) || waitingSource.containsKey(party)) {
      throw new IllegalStateException("already has or awaits a turn: " + party);
    }
    if (running.size() < limit) {
      start(source, party); // no one waits while a turn is free
      return Outcome.BEGIN;
    }
    ArrayDeque<T> queue = queues.get(source);
    int queued = queue == null ? 0 : queue.size();
    if (queued >= maxWaitingPerSource || waitingSource.size() >= maxWaiting) {
      return Outcome.REFUSED;
    }
    if (queue == null) {
      queue = new ArrayDeque<>();
      queues.put(source, queue); // a source starting to wait joins the back of the rotation
    }
    queue.addLast(party);
    waitingSource.put(party, source);
    return Outcome.WAIT;
  }

  /**
   * Ends {@code party}'s turn, or its wait (a party that closed while waiting); idempotent. Returns
   * the parties whose turn begins now.
   */
  synchronized List<T> end(T party) {
    Object source = running.remove(party);
    if (source == null) {
      Object waitingFrom = waitingSource.remove(party);
      if (waitingFrom != null) {
        ArrayDeque<T> queue = queues.get(waitingFrom);
        queue.remove(party);
        if (queue.isEmpty()) {
          queues.remove(waitingFrom);
        }
      }
      return List.of();
    }
    runningBySource.computeIfPresent(source, (s, n) -> n == 1 ? null : n - 1);
    List<T> begin = new ArrayList<>(1);
    while (running.size() < limit && !queues.isEmpty()) {
      Object next = nextSource();
      ArrayDeque<T> queue = queues.remove(next);
      T p = queue.pollFirst();
      waitingSource.remove(p);
      if (!queue.isEmpty()) {
        queues.put(next, queue); // served: to the back of the rotation
      }
      start(next, p);
      begin.add(p);
    }
    return begin;
  }

  /** The waiting source holding the fewest turns, the first in rotation order among equals. */
  private Object nextSource() {
    Iterator<Object> it = queues.keySet().iterator();
    Object best = it.next();
    int fewest = runningBySource.getOrDefault(best, 0);
    while (fewest > 0 && it.hasNext()) {
      Object s = it.next();
      int n = runningBySource.getOrDefault(s, 0);
      if (n < fewest) {
        best = s;
        fewest = n;
      }
    }
    return best;
  }

  private void start(Object source, T party) {
    running.put(party, source);
    runningBySource.merge(source, 1, Integer::sum);
  }

  synchronized int running() {
    return running.size();
  }

  synchronized int waiting() {
    return waitingSource.size();
  }

  /** Sources with a party running or waiting (bounded: forgotten when they have neither). */
  synchronized int sources() {
    Map<Object, Boolean> all = new HashMap<>();
    runningBySource.keySet().forEach(s -> all.put(s, true));
    queues.keySet().forEach(s -> all.put(s, true));
    return all.size();
  }
}
