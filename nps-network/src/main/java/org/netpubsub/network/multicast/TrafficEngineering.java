package org.netpubsub.network.multicast;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * Which links the multicast trees should avoid (SNAPS §IV-B3): a link is hot once its measured
 * utilization reaches {@code threshold}; it stays hot until utilization fell below {@code release}
 * and at least {@code holdNanos} passed since it became hot. The hold-down keeps trees from
 * flapping: moving the trees off a link lowers that link's load by their own traffic, which would
 * otherwise call them straight back.
 */
public final class TrafficEngineering {
  /** Transmitted bytes per switch port at one instant. */
  public record Sample(long nanos, Map<SwitchPort, Long> txBytes) {}

  private final double threshold;
  private final double release;
  private final long holdNanos;
  private final Map<Link, Long> hotSince = new HashMap<>();

  public TrafficEngineering(double threshold, double release, long holdNanos) {
    if (!(threshold > 0 && release >= 0 && release <= threshold) || holdNanos < 0) {
      throw new IllegalArgumentException(
          "need 0 <= release <= threshold, threshold > 0 and a hold-down >= 0");
    }
    this.threshold = threshold;
    this.release = release;
    this.holdNanos = holdNanos;
  }

  /**
   * Per link, the busier direction's rate between two samples as a share of {@code capacityBps}
   * (bits per second). Links without counters at both ends, or whose counters went backwards (a
   * reconnected switch), are left out.
   */
  public static Map<Link, Double> utilization(
      Topology t, Sample before, Sample after, double capacityBps) {
    Map<Link, Double> out = new HashMap<>();
    double seconds = (after.nanos() - before.nanos()) / 1e9;
    if (seconds <= 0) {
      return out;
    }
    for (Link l : t.links()) {
      long a = delta(before, after, l.a());
      long b = delta(before, after, l.b());
      if (a >= 0 && b >= 0) {
        out.put(l, Math.max(a, b) * 8 / seconds / capacityBps);
      }
    }
    return out;
  }

  private static long delta(Sample before, Sample after, SwitchPort p) {
    Long x = before.txBytes().get(p);
    Long y = after.txBytes().get(p);
    return x == null || y == null || y < x ? -1 : y - x;
  }

  /** Takes new measurements; returns the links hot now. */
  public Set<Link> update(long now, Map<Link, Double> utilization) {
    utilization.forEach(
        (link, u) -> {
          Long since = hotSince.get(link);
          if (since == null && u >= threshold) {
            hotSince.put(link, now);
          } else if (since != null && u < release && now - since >= holdNanos) {
            hotSince.remove(link);
          }
        });
    hotSince.keySet().retainAll(utilization.keySet()); // links gone from the topology
    return hot();
  }

  public Set<Link> hot() {
    return new TreeSet<>(hotSince.keySet());
  }
}
