package org.netpubsub.client;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * How long to wait after a 429: the {@code Retry-After} header (seconds, possibly fractional, or an
 * HTTP date), capped, for a bounded number of retries. Pure.
 */
record RetryPolicy(int maxRetries, Duration maxWait) {
  /** When the header is missing or unreadable. */
  static final Duration DEFAULT_WAIT = Duration.ofMillis(200);

  /**
   * The wait before retry number {@code attempt} (0-based), or null when retries are spent. {@code
   * now} is only used for an HTTP-date header.
   */
  Duration afterRateLimit(int attempt, Optional<String> retryAfter, ZonedDateTime now) {
    if (attempt >= maxRetries) {
      return null;
    }
    Duration wait = retryAfter.map(v -> parse(v.strip(), now)).orElse(DEFAULT_WAIT);
    if (wait.isNegative()) {
      wait = Duration.ZERO;
    }
    return wait.compareTo(maxWait) > 0 ? maxWait : wait;
  }

  Duration afterRateLimit(int attempt, Optional<String> retryAfter) {
    return afterRateLimit(attempt, retryAfter, ZonedDateTime.now());
  }

  private static Duration parse(String v, ZonedDateTime now) {
    try {
      double seconds = Double.parseDouble(v);
      if (Double.isFinite(seconds)) {
        return Duration.ofNanos((long) (Math.min(seconds, 86_400) * 1e9));
      }
    } catch (NumberFormatException e) {
      // maybe a date
    }
    try {
      ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
      return Duration.between(now, at);
    } catch (DateTimeParseException e) {
      return DEFAULT_WAIT;
    }
  }
}
