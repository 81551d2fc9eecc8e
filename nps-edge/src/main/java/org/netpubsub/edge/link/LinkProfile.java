package org.netpubsub.edge.link;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.random.RandomGenerator;
import org.netpubsub.content.Durations;

/**
 * One emulated link's behaviour (experiments only): a fixed delay, uniform jitter of ± {@code
 * jitter} around it, and independent loss with probability {@code loss} — what netem's {@code delay
 * D J loss P%} does, which these machines lack. Pure.
 */
public record LinkProfile(Duration delay, Duration jitter, double loss) {
  public static final LinkProfile PERFECT = new LinkProfile(Duration.ZERO, Duration.ZERO, 0);

  public LinkProfile {
    if (delay.isNegative() || jitter.isNegative() || !(loss >= 0 && loss <= 1)) {
      throw new IllegalArgumentException("delay, jitter >= 0 and loss in [0, 1]");
    }
  }

  /** The delay of one datagram in nanoseconds, or empty when it is lost. */
  public OptionalLong sample(RandomGenerator r) {
    if (loss > 0 && r.nextDouble() < loss) {
      return OptionalLong.empty();
    }
    long d = delay.toNanos();
    long j = jitter.toNanos();
    if (j > 0) {
      d += r.nextLong(-j, j + 1);
    }
    return OptionalLong.of(Math.max(0, d));
  }

  /**
   * Parses {@code delay=30ms,jitter=5ms,loss=1%} (any subset; durations in ms or s, loss in % or as
   * a fraction).
   */
  public static LinkProfile parse(String spec) {
    Duration delay = Duration.ZERO;
    Duration jitter = Duration.ZERO;
    double loss = 0;
    for (String part : spec.split(",")) {
      String p = part.strip();
      int eq = p.indexOf('=');
      if (eq < 1) {
        throw new IllegalArgumentException("link emulation: '" + p + "' is not KEY=VALUE");
      }
      String k = p.substring(0, eq);
      String v = p.substring(eq + 1);
      switch (k) {
        case "delay" -> delay = duration(v);
        case "jitter" -> jitter = duration(v);
        case "loss" -> loss = fraction(v);
        default ->
            throw new IllegalArgumentException(
                "link emulation: unknown key '" + k + "' (delay, jitter, loss)");
      }
    }
    return new LinkProfile(delay, jitter, loss);
  }

  private static Duration duration(String v) {
    return Durations.parse(v, "link emulation", null); // the unit is required: 30ms, 1s
  }

  private static double fraction(String v) {
    try {
      return v.endsWith("%")
          ? Double.parseDouble(v.substring(0, v.length() - 1)) / 100
          : Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("link emulation: '" + v + "' is not a loss (1% or 0.01)");
    }
  }
}
