package org.netpubsub.controller.southbound;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Admission of TLS handshakes, per source (the peer's IP address): free while the source keeps up,
 * in turns while it is behind. Pure (no I/O; the caller passes the time); thread-safe.
 *
 * <p>Why: Open vSwitch gives a connection max(1, backoff) seconds for TCP, TLS and the controller's
 * HELLO together, and after ovs-vswitchd restarts all its bridges connect in the same millisecond.
 * Processed side by side on a controller starved of CPU, their handshakes all finish after the sum
 * of their work, past the deadline, and no switch ever connects (docs/results/ovs-reconnect.md).
 * Turns (a few at a time) fix that, but always-on turns cost every quiet reconnect: a third
 * handshake waited for a round trip with a busy ovs-vswitchd and missed the deadline (stop 41).
 *
 * <p>So a source's handshakes begin at once while the oldest of its running handshakes began less
 * than {@code behind} ago: a quiet controller finishes a burst of 20 in tens of milliseconds and
 * never waits. When a new one finds {@code limit} or more running, the oldest begun at least {@code
 * behind} ago, the source is behind: new ones wait (arrival order) and begin only as running ones
 * end, at most {@code limit} running, so the begun ones finish first (the most advanced get the
 * CPU). The source keeps up again when nothing of it waits.
 *
 * <p>Why per source and nothing shared: an unauthenticated peer stalling handshakes makes only its
 * own address behind, never another's (a switch at another address begins at once, as without
 * turns). Waiting is bounded ({@code maxWaitingPerSource}, {@code maxWaiting} in all, so held
 * ClientHellos cannot grow memory without bound); a party beyond a bound is not refused but begins
 * at once ({@link Outcome#OVERFLOW}): what it costs is what every handshake cost without turns. A
 * source with nothing running or waiting is forgotten. The caller ends every begun turn (handshake
 * done or failed, closed, or a lease, so a stalled peer cannot keep one).
 */
final class HandshakeTurns<T> {
  /** What {@link #request} decided. */
  enum Outcome {
    /** Begins now. */
    BEGIN,
    /** Waits until {@link #end} returns it. */
    WAIT,
    /** Begins now although its source is behind: the waiting bounds are full. */
    OVERFLOW
  }

  /** One source: running parties in the order they began (with when), then those waiting. */
  private static final class Source<T> {
    final LinkedHashMap<T, Long> running = new LinkedHashMap<>();
    final ArrayDeque<T> waiting = new ArrayDeque<>();
  }

  private final int limit;
  private final long behindNanos;
  private final int maxWaitingPerSource;
  private final int maxWaiting;
  private final Map<Object, Source<T>> sources = new HashMap<>();
  private final Map<T, Object> sourceOf = new HashMap<>();
  private int waitingInAll;

  HandshakeTurns(int limit, long behindNanos, int maxWaitingPerSource, int maxWaiting) {
    if (limit < 1) {
      throw new IllegalArgumentException("at least one handshake at a time: " + limit);
    }
    if (behindNanos < 0 || maxWaitingPerSource < 0 || maxWaiting < 0) {
      throw new IllegalArgumentException(
          "negative bound: " + behindNanos + ", " + maxWaitingPerSource + ", " + maxWaiting);
    }
    this.limit = limit;
    this.behindNanos = behindNanos;
    this.maxWaitingPerSource = maxWaitingPerSource;
    this.maxWaiting = maxWaiting;
  }

  /** {@code party} from {@code source} asks to begin at {@code now} (nanoseconds); asks once. */
  synchronized Outcome request(Object source, T party, long now) {
    if (sourceOf.containsKey(party)) {
      throw new IllegalStateException("already has or awaits a turn: " + party);
    }
    Source<T> s = sources.computeIfAbsent(source, k -> new Source<>());
    sourceOf.put(party, source);
    boolean behind =
        !s.waiting.isEmpty()
            || (s.running.size() >= limit
                && now - s.running.firstEntry().getValue() >= behindNanos);
    if (!behind) {
      s.running.put(party, now);
      return Outcome.BEGIN;
    }
    if (s.waiting.size() >= maxWaitingPerSource || waitingInAll >= maxWaiting) {
      s.running.put(party, now);
      return Outcome.OVERFLOW;
    }
    s.waiting.addLast(party);
    waitingInAll++;
    return Outcome.WAIT;
  }

  /**
   * Ends {@code party}'s turn, or its wait (a party that closed while waiting), at {@code now};
   * idempotent, and a no-op for a party that never asked. Returns the parties that begin now.
   */
  synchronized List<T> end(T party, long now) {
    Object key = sourceOf.remove(party);
    if (key == null) {
      return List.of();
    }
    Source<T> s = sources.get(key);
    List<T> begin = List.of();
    if (s.running.remove(party) != null) {
      while (s.running.size() < limit && !s.waiting.isEmpty()) {
        if (begin.isEmpty()) {
          begin = new ArrayList<>(1);
        }
        T next = s.waiting.pollFirst();
        waitingInAll--;
        s.running.put(next, now);
        begin.add(next);
      }
    } else if (s.waiting.remove(party)) {
      waitingInAll--;
    }
    if (s.running.isEmpty() && s.waiting.isEmpty()) {
      sources.remove(key);
    }
    return begin;
  }

  synchronized int running() {
    return sourceOf.size() - waitingInAll;
  }

  synchronized int waiting() {
    return waitingInAll;
  }

  /** Sources with a party running or waiting (bounded: forgotten when they have neither). */
  synchronized int sources() {
    return sources.size();
  }
}
