package org.netpubsub.network.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Shortest paths, next hops, the center and the spanning tree against a naive twin: Floyd–Warshall
 * distances over the link list, and brute force over every link for the tie-break.
 */
class TopologyPathProperties {

  @Provide
  Arbitrary<Topology> graphs() {
    return Combinators.combine(
            Arbitraries.longs(),
            Arbitraries.integers().between(1, 14),
            Arbitraries.integers().between(0, 20),
            Arbitraries.of(true, true, false))
        .as((seed, n, extra, connected) -> TestTopologies.random(seed, n, extra, connected, 0.3));
  }

  /** Floyd–Warshall over the switches in ascending order; MAX for unreachable. */
  private static final class Naive {
    final List<Long> ids;
    final int[][] d;

    Naive(Topology t) {
      ids = new ArrayList<>(t.switches());
      int n = ids.size();
      d = new int[n][n];
      for (int[] row : d) {
        Arrays.fill(row, Integer.MAX_VALUE / 2);
      }
      for (int i = 0; i < n; i++) {
        d[i][i] = 0;
      }
      for (Link l : t.links()) {
        int a = ids.indexOf(l.a().dpid());
        int b = ids.indexOf(l.b().dpid());
        d[a][b] = Math.min(d[a][b], a == b ? 0 : 1);
        d[b][a] = d[a][b];
      }
      for (int k = 0; k < n; k++) {
        for (int i = 0; i < n; i++) {
          for (int j = 0; j < n; j++) {
            d[i][j] = Math.min(d[i][j], d[i][k] + d[k][j]);
          }
        }
      }
    }

    Integer dist(long a, long b) {
      int v = d[ids.indexOf(a)][ids.indexOf(b)];
      return v >= Integer.MAX_VALUE / 2 ? null : v;
    }
  }

  @Property(tries = 300)
  void distancesAreFloydWarshall(@ForAll("graphs") Topology t) {
    Naive naive = new Naive(t);
    for (long a : t.switches()) {
      Map<Long, Integer> d = t.distances(a);
      for (long b : t.switches()) {
        assertThat(d.get(b)).as("%x -> %x", a, b).isEqualTo(naive.dist(a, b));
      }
    }
  }

  @Property(tries = 300)
  void shortestPathsAreShortestRealAndStable(@ForAll("graphs") Topology t) {
    Naive naive = new Naive(t);
    for (long a : t.switches()) {
      for (long b : t.switches()) {
        Optional<Path> p = t.shortestPath(a, b);
        Integer d = naive.dist(a, b);
        assertThat(p.isPresent()).isEqualTo(d != null);
        if (p.isEmpty()) {
          assertThat(t.nextHop(a, b)).isEmpty();
          continue;
        }
        assertThat(p.get().length()).isEqualTo(d);
        assertThat(p.get().switches()).doesNotHaveDuplicates();
        for (Hop h : p.get().hops()) {
          assertThat(t.links()).contains(h.link());
        }
        if (d > 0) {
          Hop first = p.get().hops().get(0);
          assertThat(t.nextHop(a, b)).contains(first);
          assertThat(first).isEqualTo(bruteForceNextHop(t, naive, a, b));
          // Every suffix is the path reported from there: forwarding by destination is a tree.
          Path rest = t.shortestPath(first.to().dpid(), b).orElseThrow();
          assertThat(rest.hops()).isEqualTo(p.get().hops().subList(1, d));
        }
      }
    }
  }

  /**
   * Among all link ends at {@code a} leading one hop closer to {@code b}: the least by tie-break.
   */
  private static Hop bruteForceNextHop(Topology t, Naive naive, long a, long b) {
    Hop best = null;
    for (Link l : t.links()) {
      for (SwitchPort end : List.of(l.a(), l.b())) {
        SwitchPort peer = l.peer(end);
        if (end.dpid() != a || peer.dpid() == a) {
          continue;
        }
        Integer dp = naive.dist(peer.dpid(), b);
        if (dp == null || dp != naive.dist(a, b) - 1) {
          continue;
        }
        Hop h = new Hop(end, peer);
        if (best == null || tieBreak(h, best) < 0) {
          best = h;
        }
      }
    }
    return best;
  }

  private static int tieBreak(Hop x, Hop y) {
    int c = Long.compareUnsigned(x.to().dpid(), y.to().dpid());
    if (c != 0) {
      return c;
    }
    c = Long.compare(x.from().port(), y.from().port());
    return c != 0 ? c : Long.compare(x.to().port(), y.to().port());
  }

  @Property(tries = 200)
  void allPairsNextHopsReachEveryDestinationInDistanceSteps(@ForAll("graphs") Topology t) {
    Naive naive = new Naive(t);
    Map<Long, Map<Long, Hop>> next = t.allPairsNextHops();
    for (long dst : t.switches()) {
      for (long src : t.switches()) {
        Integer d = naive.dist(src, dst);
        assertThat(next.get(dst).containsKey(src)).isEqualTo(d != null && d > 0);
        long at = src;
        for (int step = 0; d != null && step < d; step++) {
          at = next.get(dst).get(at).to().dpid();
        }
        if (d != null) {
          assertThat(at).isEqualTo(dst);
        }
      }
    }
  }

  @Property(tries = 300)
  void centerMinimizesReachThenEccentricityThenSumThenDpid(@ForAll("graphs") Topology t) {
    Naive naive = new Naive(t);
    long best = 0;
    long[] bestScore = null;
    for (long s : t.switches()) {
      long reached = 0;
      long max = 0;
      long sum = 0;
      for (long o : t.switches()) {
        Integer d = naive.dist(s, o);
        if (d != null) {
          reached++;
          max = Math.max(max, d);
          sum += d;
        }
      }
      long[] score = {-reached, max, sum};
      if (bestScore == null
          || Arrays.compare(score, bestScore) < 0
          || (Arrays.equals(score, bestScore) && Long.compareUnsigned(s, best) < 0)) {
        best = s;
        bestScore = score;
      }
    }
    if (bestScore == null) {
      assertThat(t.center()).isEmpty();
    } else {
      assertThat(t.center()).hasValue(best);
    }
  }

  @Property(tries = 300)
  void spanningTreeSpansTheComponentAndIsShortest(@ForAll("graphs") Topology t) {
    Naive naive = new Naive(t);
    Optional<SpanningTree> maybe = t.spanningTree();
    assertThat(maybe.isPresent()).isEqualTo(!t.switches().isEmpty());
    if (maybe.isEmpty()) {
      return;
    }
    SpanningTree tree = maybe.get();
    long root = tree.root();
    List<Long> component = t.switches().stream().filter(s -> naive.dist(root, s) != null).toList();
    assertThat(tree.switches()).containsExactlyElementsOf(component);
    assertThat(tree.links()).hasSize(component.size() - 1);
    assertThat(t.links()).containsAll(tree.links());
    int height = 0;
    for (long s : component) {
      assertThat(tree.depth(s)).isEqualTo(naive.dist(root, s));
      height = Math.max(height, tree.depth(s));
      assertThat(tree.parent(s).isPresent()).isEqualTo(s != root);
    }
    assertThat(tree.height()).isEqualTo(height);
    // Connected through tree links only: every pair's tree path uses tree links.
    for (long a : component) {
      for (long b : component) {
        Path p = tree.path(a, b);
        assertThat(tree.links()).containsAll(p.hops().stream().map(Hop::link).toList());
        assertThat(p.length()).isLessThanOrEqualTo(tree.depth(a) + tree.depth(b));
        assertThat(p.switches()).doesNotHaveDuplicates();
      }
    }
  }
}
