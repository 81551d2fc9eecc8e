package org.netpubsub.controller.southbound;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Turns for TLS handshakes: at most {@code limit} connections at once have their handshake
 * processed; the others wait in arrival order. Pure (no I/O, no clock); thread-safe.
 *
 * <p>Why: Open vSwitch gives a connection max(1, backoff) seconds (1 s at first, 8 s at most) for
 * TCP, TLS and the controller's HELLO together, and closes it if they are not done. After
 * ovs-vswitchd restarts, every bridge connects in the same millisecond. Handshakes processed side
 * by side on the controller's loop all finish together, after the sum of their CPU work; when the
 * controller gets little CPU (a loaded machine), that sum exceeds Open vSwitch's deadline, every
 * attempt is abandoned with its work wasted, and the bridges come back together for the next round:
 * no switch connects (docs/testing.md, "Load failures traced", stop 41). In turns, the first
 * handshakes finish after their own work, so every round connects some switches.
 *
 * <p>A turn is asked for by {@link #request}; a turn ends with {@link #end} (handshake done or
 * failed, connection closed, or the turn's time is up — the caller's lease, so a peer that stalls
 * cannot keep one). Each call returns the waiting parties whose turn begins now, to be started by
 * the caller outside any lock.
 */
final class HandshakeTurns<T> {
  private final int limit;
  private final Set<T> running = new HashSet<>();
  private final ArrayDeque<T> waiting = new ArrayDeque<>();

  HandshakeTurns(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("at least one handshake at a time: " + limit);
    }
    this.limit = limit;
  }

  /** True if {@code party}'s turn begins now; else it waits (a party asks once). */
  synchronized boolean request(T party) {
    if (running.contains(party) || waiting.contains(party)) {
      throw new IllegalStateException("already has or awaits a turn: " + party);
    }
    if (running.size() < limit) {
      running.add(party);
      return true;
    }
    waiting.addLast(party);
    return false;
  }

  /**
   * Ends {@code party}'s turn, or its wait (a party that closed while waiting); idempotent. Returns
   * the parties whose turn begins now, in arrival order.
   */
  synchronized List<T> end(T party) {
    if (!running.remove(party)) {
      waiting.remove(party);
      return List.of();
    }
    List<T> begin = new ArrayList<>(1);
    while (running.size() < limit && !waiting.isEmpty()) {
      T next = waiting.pollFirst();
      running.add(next);
      begin.add(next);
    }
    return begin;
  }

  synchronized int running() {
    return running.size();
  }

  synchronized int waiting() {
    return waiting.size();
  }
}
