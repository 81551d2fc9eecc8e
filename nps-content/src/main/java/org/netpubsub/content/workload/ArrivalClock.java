package org.netpubsub.content.workload;

import java.util.OptionalDouble;

/** Issues the arrival time of each successive subscription, rounded to microseconds. */
final class ArrivalClock {
  private final Arrival arrival;
  private final Rand rng;
  private final double meanGapMs;
  private long count;
  private double nowMs;

  ArrivalClock(Arrival arrival, Rand rng) {
    this.arrival = arrival;
    this.rng = rng;
    this.meanGapMs = arrival.kind() == Arrival.Kind.NONE ? 0 : 1000.0 / arrival.ratePerSecond();
  }

  OptionalDouble next() {
    long i = count++;
    return switch (arrival.kind()) {
      case NONE -> OptionalDouble.empty();
      // i / rate rather than a running sum, so rounding errors do not accumulate.
      case UNIFORM -> OptionalDouble.of(roundToMicros(i * meanGapMs));
      case POISSON -> {
        nowMs += rng.exponential(meanGapMs);
        yield OptionalDouble.of(roundToMicros(nowMs));
      }
    };
  }

  private static double roundToMicros(double ms) {
    return Math.round(ms * 1000.0) / 1000.0;
  }
}
