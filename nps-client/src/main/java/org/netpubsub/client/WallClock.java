package org.netpubsub.client;

import java.time.Instant;
import java.time.InstantSource;

/** Nanoseconds since the epoch from an {@link InstantSource}: the events' timestamp scale. */
final class WallClock {
  private WallClock() {}

  static long nanos(InstantSource clock) {
    Instant now = clock.instant();
    return now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
