package org.netpubsub.content.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Coarsens the cells one switch port delivers (the union of its subscriptions' covers) to a flow
 * budget, letting in as few sample events as it can (docs/content-model.md, "Flow budget").
 *
 * <p>{@link DzSet#coarsen} cuts every member to one length, which ignores where events fall. Here a
 * merge replaces the members under the longest common prefix of two neighbours (in dz order) by
 * that prefix; its cost is the sample points the prefix adds, and merges are taken cheapest per
 * saved cell first. A dictionary coding leaves much of the code space without events (unused codes,
 * values no one publishes), so many merges cost nothing. Each round takes non-overlapping merges in
 * that order until half of the excess is saved, so the rounds are logarithmic in the excess. The
 * result covers every point the input covers, so no event a subscription matches is lost. Pure.
 */
public final class FlowBudget {
  private FlowBudget() {}

  /**
   * A superset of {@code cells} with at most {@code maxFlows} members, chosen to cover few of
   * {@code points} (the dz of sample events, any order) outside {@code cells}.
   */
  public static DzSet merge(DzSet cells, int maxFlows, List<Dz> points) {
    if (maxFlows < 1) {
      throw new IllegalArgumentException("maxFlows must be at least 1, got " + maxFlows);
    }
    Dz[] pts = points.toArray(new Dz[0]);
    Arrays.sort(pts);
    DzSet current = cells;
    while (current.size() > maxFlows) {
      current = round(current, current.size() - maxFlows, pts);
    }
    return current;
  }

  /** One merge candidate: the prefix, the member run it replaces, and its cost. */
  private record Merge(Dz prefix, int from, int to, long cost, double volume) {
    int saved() {
      return to - from;
    }
  }

  private static DzSet round(DzSet set, int excess, Dz[] pts) {
    Dz[] m = set.members().toArray(new Dz[0]);
    long[] before = new long[m.length + 1]; // before[i]: sample points in m[0..i)
    double[] volume = new double[m.length + 1]; // volume[i]: the volume of m[0..i)
    for (int i = 0; i < m.length; i++) {
      before[i + 1] = before[i] + count(pts, m[i]);
      volume[i + 1] = volume[i] + Math.scalb(1.0, -m[i].length());
    }
    List<Merge> candidates = new ArrayList<>(m.length);
    for (int i = 0; i + 1 < m.length; i++) {
      Dz p = commonPrefix(m[i], m[i + 1]);
      int from = first(m, p);
      int to = last(m, p);
      candidates.add(
          new Merge(
              p,
              from,
              to,
              count(pts, p) - (before[to + 1] - before[from]),
              Math.scalb(1.0, -p.length()) - (volume[to + 1] - volume[from])));
    }
    // cheapest per saved cell first (cost / saved, compared exactly), then least volume per saved
    // cell, then the bigger merge
    candidates.sort(
        (a, b) -> {
          int c = Long.compare(a.cost() * b.saved(), b.cost() * a.saved());
          c = c != 0 ? c : Double.compare(a.volume() * b.saved(), b.volume() * a.saved());
          return c != 0 ? c : Integer.compare(b.saved(), a.saved());
        });
    boolean[] taken = new boolean[m.length];
    Dz[] replaced = m.clone();
    int goal = Math.max(1, (excess + 1) / 2);
    int saved = 0;
    for (Merge c : candidates) {
      if (saved >= goal) {
        break;
      }
      if (taken[c.from()] || taken[c.to()]) {
        continue; // runs are nested or disjoint, so checking the ends suffices
      }
      for (int j = c.from(); j <= c.to(); j++) {
        taken[j] = true;
        replaced[j] = c.prefix();
      }
      saved += c.saved();
    }
    return DzSet.of(replaced); // drops the duplicates and merges siblings
  }

  /** The longest common prefix of two dz. */
  static Dz commonPrefix(Dz a, Dz b) {
    long x = a.hi() ^ b.hi();
    int n = x != 0 ? Long.numberOfLeadingZeros(x) : 64 + Long.numberOfLeadingZeros(a.lo() ^ b.lo());
    return a.prefix(Math.min(n, Math.min(a.length(), b.length())));
  }

  /** The number of sorted points {@code d} covers: they form one run in dz order. */
  static int count(Dz[] sorted, Dz d) {
    return last(sorted, d) + 1 - first(sorted, d);
  }

  /** The first index whose element is at least {@code d} (d precedes its extensions). */
  private static int first(Dz[] sorted, Dz d) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid].compareTo(d) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The last index whose element is before {@code d}'s subspace ends (covered or smaller). */
  private static int last(Dz[] sorted, Dz d) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (sorted[mid].compareTo(d) < 0 || d.covers(sorted[mid])) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo - 1;
  }
}
