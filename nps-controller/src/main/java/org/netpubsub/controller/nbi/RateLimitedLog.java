package org.netpubsub.controller.nbi;

import java.text.MessageFormat;

/**
 * A WARNING at most once per interval, saying how many events it stands for: refusals driven by
 * remote peers must not flood the log. Holds one time and one count, whoever sends.
 */
final class RateLimitedLog {
  private final System.Logger log;
  private final long intervalNanos;
  private long last; // guarded by this
  private boolean logged; // guarded by this
  private long suppressed; // guarded by this

  RateLimitedLog(System.Logger log, long intervalMillis) {
    this.log = log;
    this.intervalNanos = intervalMillis * 1_000_000L;
  }

  /** Logs {@code pattern} (MessageFormat) now, or counts it into the next line. */
  void warn(String pattern, Object... args) {
    long now = System.nanoTime();
    long count;
    synchronized (this) {
      suppressed++;
      if (logged && now - last < intervalNanos) {
        return;
      }
      logged = true;
      last = now;
      count = suppressed;
      suppressed = 0;
    }
    log.log(
        System.Logger.Level.WARNING,
        count + " " + MessageFormat.format(pattern, args) + " (at most one line per interval)");
  }
}
