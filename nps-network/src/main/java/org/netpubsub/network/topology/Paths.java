package org.netpubsub.network.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Breadth-first shortest paths by hop count. The next hop of a switch towards a destination is the
 * first of its links, in {@link Topology#hopsFrom} order, whose peer is one hop closer: a pure
 * function of the topology, so the paths of all sources towards one destination form a tree and
 * forwarding by destination cannot loop.
 */
final class Paths {
  private Paths() {}

  static Map<Long, Integer> distances(Topology t, long from) {
    Map<Long, Integer> d = new TreeMap<>(SwitchPort.DPID_ORDER);
    if (!t.hasSwitch(from)) {
      return d;
    }
    ArrayDeque<Long> queue = new ArrayDeque<>();
    d.put(from, 0);
    queue.add(from);
    while (!queue.isEmpty()) {
      long u = queue.poll();
      int du = d.get(u);
      for (Hop h : t.hopsFrom(u)) {
        long v = h.to().dpid();
        if (!d.containsKey(v)) {
          d.put(v, du + 1);
          queue.add(v);
        }
      }
    }
    return d;
  }

  static Map<Long, Hop> nextHopsTo(Topology t, long to) {
    Map<Long, Integer> d =
        distances(t, to); // links are undirected: from u to `to` = from `to` to u
    Map<Long, Hop> out = new TreeMap<>(SwitchPort.DPID_ORDER);
    d.forEach(
        (u, du) -> {
          for (Hop h : t.hopsFrom(u)) {
            Integer dv = d.get(h.to().dpid());
            if (dv != null && dv == du - 1) {
              out.put(u, h);
              break;
            }
          }
        });
    return out;
  }

  static Optional<Path> shortestPath(Topology t, long from, long to) {
    if (!t.hasSwitch(from) || !t.hasSwitch(to)) {
      return Optional.empty();
    }
    Map<Long, Hop> next = nextHopsTo(t, to);
    List<Hop> hops = new ArrayList<>();
    long at = from;
    while (at != to) {
      Hop h = next.get(at);
      if (h == null) {
        return Optional.empty();
      }
      hops.add(h);
      at = h.to().dpid();
    }
    return Optional.of(new Path(from, to, hops));
  }

  /** Most switches reached, then least eccentricity, then least distance sum, then lowest dpid. */
  static OptionalLong center(Topology t) {
    long best = 0;
    long[] bestScore = null;
    for (long s : t.switches()) { // ascending dpids: a later switch wins only if strictly better
      Map<Long, Integer> d = distances(t, s);
      long max = 0;
      long sum = 0;
      for (int x : d.values()) {
        max = Math.max(max, x);
        sum += x;
      }
      long[] score = {-d.size(), max, sum};
      if (bestScore == null || java.util.Arrays.compare(score, bestScore) < 0) {
        best = s;
        bestScore = score;
      }
    }
    return bestScore == null ? OptionalLong.empty() : OptionalLong.of(best);
  }
}
