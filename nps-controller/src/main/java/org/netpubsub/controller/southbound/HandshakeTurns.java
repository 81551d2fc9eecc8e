package org.netpubsub.controller.southbound;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Admission of TLS handshakes, per source (the peer's IP address): free while the controller keeps
 * up, in turns while it is slow. Pure (no I/O; the caller says whether the controller is slow,
 * {@link HandshakeLag}); thread-safe.
 *
 * <p>Why: Open vSwitch gives a connection max(1, backoff) seconds for TCP, TLS and the controller's
 * HELLO together, and after ovs-vswitchd restarts all its bridges connect in the same millisecond.
 * Processed side by side on a controller starved of CPU, their handshakes all finish after the sum
 * of their work, past the deadline, and no switch ever connects (docs/results/ovs-reconnect.md).
 * Turns (a few at a time) fix that, but always-on turns cost every quiet reconnect: a third
 * handshake waited for a round trip with a busy ovs-vswitchd and missed the deadline (stop 41).
 * Turns started by a handshake's age (stop 42's first try) took a slow peer for a slow controller
 * and held a fresh test bed's first connections two at a time.
 *
 * <p>So a handshake begins at once unless the controller is slow (its last server flight took long
 * on the loop: CPU it does not get) and its source has {@code limit} or more running; then it waits
 * (arrival order) and begins as its source's running ones end, so the begun ones finish first. When
 * one ends while the controller is not slow, all of its source's waiting begin.
 *
 * <p>Why per source: an unauthenticated peer stalling handshakes holds turns of its own address
 * only; a switch at another address begins while fewer than {@code limit} of its own run. Waiting
 * is bounded ({@code maxWaitingPerSource}, {@code maxWaiting} in all, so held ClientHellos cannot
 * grow memory without bound); a party beyond a bound is not refused but begins at once ({@link
 * Outcome#OVERFLOW}): what it costs is what every handshake cost without turns. A source with
 * nothing running or waiting is forgotten. The caller ends every begun turn (handshake done or
 * failed, closed, or a lease, so a stalled peer cannot keep one).
 */
final class HandshakeTurns<T> {
  /** What {@link #request} decided. */
  enum Outcome {
    /** Begins now. */
    BEGIN,
    /** Waits until {@link #end} returns it. */
    WAIT,
    /** Begins now although it would wait: the waiting bounds are full. */
    OVERFLOW
  }

  /** One source: its running parties and those waiting, in arrival order. */
  private static final class Source<T> {
    final Set<T> running = new HashSet<>();
    final ArrayDeque<T> waiting = new ArrayDeque<>();
  }

  private final int limit;
  private final int maxWaitingPerSource;
  private final int maxWaiting;
  private final Map<Object, Source<T>> sources = new HashMap<>();
  private final Map<T, Object> sourceOf = new HashMap<>();
  private int waitingInAll;

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

  /** {@code party} from {@code source} asks to begin, the controller {@code slow} or not; once. */
  synchronized Outcome request(Object source, T party, boolean slow) {
    if (sourceOf.containsKey(party)) {
      throw new IllegalStateException("already has or awaits a turn: " + party);
    }
    Source<T> s = sources.computeIfAbsent(source, k -> new Source<>());
    sourceOf.put(party, source);
    if (!slow || s.running.size() < limit) {
      s.running.add(party);
      return Outcome.BEGIN;
    }
    if (s.waiting.size() >= maxWaitingPerSource || waitingInAll >= maxWaiting) {
      s.running.add(party);
      return Outcome.OVERFLOW;
    }
    s.waiting.addLast(party);
    waitingInAll++;
    return Outcome.WAIT;
  }

  /**
   * Ends {@code party}'s turn, or its wait (a party that closed while waiting), the controller
   * {@code slow} or not; idempotent, and a no-op for a party that never asked. Returns the parties
   * that begin now: while slow, as many of its source's waiting as bring it to {@code limit}
   * running; else all of them.
   */
  synchronized List<T> end(T party, boolean slow) {
    Object key = sourceOf.remove(party);
    if (key == null) {
      return List.of();
    }
    Source<T> s = sources.get(key);
    List<T> begin = List.of();
    if (s.running.remove(party)) {
      while ((!slow || s.running.size() < limit) && !s.waiting.isEmpty()) {
        if (begin.isEmpty()) {
          begin = new ArrayList<>(1);
        }
        T next = s.waiting.pollFirst();
        waitingInAll--;
        s.running.add(next);
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
