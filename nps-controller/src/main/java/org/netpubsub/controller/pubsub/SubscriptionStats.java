package org.netpubsub.controller.pubsub;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What subscribers report they received and dropped (docs/pubsub.md "Measured by the subscribers"):
 * per subscription the last report of its cumulative counters. Keyed by remote input, so bounded
 * (the least recently reported goes first) and expiring (a subscription that stopped reporting for
 * {@code ttlNanos} is forgotten). Pure: the caller gives the time.
 */
public final class SubscriptionStats {
  /** One subscription's last report: counters since it subscribed, and when it came. */
  public record Report(long received, long falsePositives, long atNanos) {}

  /** What a report added to the running totals (for counters that only go up). */
  public record Delta(long received, long falsePositives) {}

  /** Sums over the subscriptions reporting. */
  public record Totals(long received, long falsePositives, int subscriptions) {
    /** False positives over received; 0 when nothing was received. */
    public double rate() {
      return received == 0 ? 0 : (double) falsePositives / received;
    }
  }

  private final int max;
  private final long ttlNanos;
  private final LinkedHashMap<String, Report> byId = new LinkedHashMap<>(16, 0.75f, true);

  public SubscriptionStats(int max, long ttlNanos) {
    if (max < 1 || ttlNanos < 1) {
      throw new IllegalArgumentException("max and ttl must be positive");
    }
    this.max = max;
    this.ttlNanos = ttlNanos;
  }

  /**
   * Keeps {@code id}'s report; answers what it added since the last one. Counters that went back (a
   * restarted subscriber) count from zero again.
   */
  public synchronized Delta record(String id, long received, long falsePositives, long now) {
    if (received < 0 || falsePositives < 0 || falsePositives > received) {
      throw new IllegalArgumentException("0 <= false_positives <= received");
    }
    Report last = byId.put(id, new Report(received, falsePositives, now));
    while (byId.size() > max) {
      Iterator<String> eldest = byId.keySet().iterator();
      eldest.next();
      eldest.remove();
    }
    if (last == null || received < last.received() || falsePositives < last.falsePositives()) {
      return new Delta(received, falsePositives);
    }
    return new Delta(received - last.received(), falsePositives - last.falsePositives());
  }

  /**
   * The reports of subscriptions that still stand ({@code live}) and reported within the time to
   * live, in no particular order; forgets the others.
   */
  public synchronized Map<String, Report> current(Predicate<String> live, long now) {
    byId.entrySet()
        .removeIf(e -> !live.test(e.getKey()) || now - e.getValue().atNanos() > ttlNanos);
    return Map.copyOf(byId);
  }

  /** The sums over {@code reports}. */
  public static Totals totals(Map<String, Report> reports) {
    long r = 0;
    long fp = 0;
    for (Report x : reports.values()) {
      r += x.received();
      fp += x.falsePositives();
    }
    return new Totals(r, fp, reports.size());
  }
}
