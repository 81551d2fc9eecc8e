package org.netpubsub.content.workload;

import java.util.Locale;

/**
 * When control requests (subscriptions) are issued, PLEROMA §V-A: at a uniform rate (equally
 * spaced, the first at 0 ms) or at a Poisson rate (exponential inter-arrival times with mean
 * 1/rate, so bursts and lulls around the average). {@code ratePerSecond} is requests per second.
 */
public record Arrival(Kind kind, double ratePerSecond) {
  /** No arrival times: subscriptions carry no {@code at_ms}. */
  public static final Arrival NONE = new Arrival(Kind.NONE, 0);

  /** The arrival process. */
  public enum Kind {
    NONE,
    UNIFORM,
    POISSON;

    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    public static Kind parse(String label) {
      for (Kind k : values()) {
        if (k.label().equals(label)) {
          return k;
        }
      }
      throw new IllegalArgumentException(
          "unknown arrival process '" + label + "' (use none, uniform or poisson)");
    }
  }

  public Arrival {
    if (kind != Kind.NONE && !(ratePerSecond > 0 && ratePerSecond < Double.POSITIVE_INFINITY)) {
      throw new IllegalArgumentException(
          "arrival rate must be a positive number of requests per second, got " + ratePerSecond);
    }
  }
}
