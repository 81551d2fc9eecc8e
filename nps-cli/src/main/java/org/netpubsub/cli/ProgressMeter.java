package org.netpubsub.cli;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Progress of a long run on stderr, at most once per interval: messages so far and the rate since
 * the start, as text or (with --json) as a {@code {"kind":"progress"}} line. Checking costs one
 * clock read, so callers may call it per packet.
 */
final class ProgressMeter {
  private final PrintWriter err;
  private final boolean json;
  private final String what;
  private final long intervalNanos;
  private final long start = System.nanoTime();
  private long next;

  /** {@code intervalMs} 0 turns progress off. */
  ProgressMeter(PrintWriter err, boolean json, String what, long intervalMs) {
    if (intervalMs < 0) {
      throw new IllegalArgumentException("--progress must be >= 0, got " + intervalMs + " ms");
    }
    this.err = err;
    this.json = json;
    this.what = what;
    this.intervalNanos = intervalMs * 1_000_000;
    this.next = start + intervalNanos;
  }

  void update(long messages) {
    if (intervalNanos == 0) {
      return;
    }
    long now = System.nanoTime();
    if (now < next) {
      return;
    }
    next = now + intervalNanos;
    double seconds = (now - start) / 1e9;
    double rate = messages / Math.max(seconds, 1e-9);
    if (json) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", "progress");
      m.put("what", what);
      m.put("messages", messages);
      m.put("seconds", Math.round(seconds * 1000) / 1000.0);
      m.put("messages_per_second", Math.round(rate));
      JsonOutput.printLine(err, m);
    } else {
      err.printf("%s: %,d messages, %.1f s, %,.0f messages/s%n", what, messages, seconds, rate);
      err.flush();
    }
  }
}
