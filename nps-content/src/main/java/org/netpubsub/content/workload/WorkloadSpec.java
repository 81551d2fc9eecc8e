package org.netpubsub.content.workload;

import java.util.Objects;

/**
 * What every model is asked for: the seed, how many subscriptions and events, how many hosts and
 * how subscriptions are divided among them, and the arrival process of subscriptions.
 */
public record WorkloadSpec(
    long seed,
    int subscriptions,
    long events,
    int hosts,
    HostAssignment assignment,
    Arrival arrival) {
  public WorkloadSpec {
    if (subscriptions < 0) {
      throw new IllegalArgumentException("subscriptions must be >= 0, got " + subscriptions);
    }
    if (events < 0) {
      throw new IllegalArgumentException("events must be >= 0, got " + events);
    }
    if (hosts < 1) {
      throw new IllegalArgumentException("hosts must be >= 1, got " + hosts);
    }
    Objects.requireNonNull(assignment, "assignment");
    Objects.requireNonNull(arrival, "arrival");
  }
}
