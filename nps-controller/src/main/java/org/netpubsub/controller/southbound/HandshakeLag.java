package org.netpubsub.controller.southbound;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether the controller is slow at TLS handshakes now: the wall time its event loop took for the
 * last ClientHello it processed (the server's whole flight, with its signature, is computed there).
 * A few milliseconds of CPU when the controller gets a core; 60-125 ms at 8-4 % of a core, and
 * longer for a cold JVM's first. Unlike a handshake's age, it does not grow with a slow peer's
 * round trips (a busy ovs-vswitchd, a stalled client), only with CPU the controller does not get.
 * Thread-safe (both event loops record into one).
 */
final class HandshakeLag {
  private final long slowNanos;
  private final AtomicLong lastNanos = new AtomicLong();

  HandshakeLag(Duration slow) {
    this.slowNanos = slow.toNanos();
  }

  void record(long nanos) {
    lastNanos.set(nanos);
  }

  boolean slow() {
    return lastNanos.get() >= slowNanos;
  }
}
