package org.netpubsub.network.multicast;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** Random connected graphs and sequences of tree additions and releases on them. */
final class MulticastArbitraries {
  private MulticastArbitraries() {}

  /**
   * Connected: node i links to one earlier node, then extra links (dropped when self-loops). Link
   * order is random, so neighbour order (the tie-break) varies too.
   */
  static Arbitrary<Graph> graphs(int minNodes, int maxNodes) {
    return Arbitraries.integers()
        .between(minNodes, maxNodes)
        .flatMap(
            n ->
                Combinators.combine(
                        Arbitraries.integers().between(0, 1 << 20).list().ofSize(n - 1),
                        Arbitraries.integers()
                            .between(0, n - 1)
                            .list()
                            .ofSize(2)
                            .list()
                            .ofMaxSize(2 * n),
                        Arbitraries.randoms())
                    .as(
                        (parents, extra, random) -> {
                          List<int[]> links = new ArrayList<>();
                          for (int i = 1; i < n; i++) {
                            links.add(new int[] {i, parents.get(i - 1) % i});
                          }
                          for (List<Integer> e : extra) {
                            if (!e.get(0).equals(e.get(1))) {
                              links.add(new int[] {e.get(0), e.get(1)});
                            }
                          }
                          java.util.Collections.shuffle(links, random);
                          Graph.Builder b = Graph.builder(n);
                          links.forEach(l -> b.link(l[0], l[1]));
                          return b.build();
                        }));
  }

  sealed interface Op {}

  /** Adds a tree; {@code members} are raw draws, taken mod the graph size. */
  record Add(int root, List<Integer> members, TreeStrategy strategy) implements Op {}

  /** Releases the {@code which}-th live tree (mod their number), if any. */
  record Release(int which) implements Op {}

  /** Members are drawn from nodes 0..pool-1 (pool taken mod the size, at least 2). */
  record Scenario(Graph graph, int rp, int pool, List<Op> ops) {
    /** The tree an Add builds, or null when its only member was the root. */
    MulticastTree tree(Add a) {
      int n = graph.size();
      int root = a.root() % n;
      int from = Math.max(2, pool % (n + 1));
      Set<Integer> members = new TreeSet<>();
      a.members().forEach(m -> members.add(m % from));
      members.remove(root);
      if (members.isEmpty()) {
        return null;
      }
      return a.strategy() == TreeStrategy.DIRECT
          ? ShortestPathTrees.direct(graph, root, members)
          : ShortestPathTrees.viaRendezvous(graph, root, rp % n, members);
    }
  }

  /**
   * Small graphs, few members from a pool of low node ids, so trees often repeat leaf sets and
   * segments get shared.
   */
  static Arbitrary<Scenario> scenarios(boolean releases, Set<TreeStrategy> strategies) {
    Arbitrary<Integer> raw = Arbitraries.integers().between(0, 1 << 20);
    Arbitrary<Op> add =
        Combinators.combine(
                raw,
                raw.list().ofMinSize(1).ofMaxSize(6),
                Arbitraries.of(strategies.toArray(TreeStrategy[]::new)))
            .as(Add::new);
    Arbitrary<Op> op =
        releases
            ? Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, add), net.jqwik.api.Tuple.of(1, raw.map(Release::new)))
            : add;
    return Combinators.combine(graphs(2, 14), raw, raw, op.list().ofMinSize(1).ofMaxSize(30))
        .as(Scenario::new);
  }

  /** Members each copy reaches, with multiplicity, following branches from {@code b}. */
  static Map<Integer, Integer> deliveries(SegmentRegistry r, Branch b) {
    Map<Integer, Integer> out = new HashMap<>();
    deliver(r, b, out, 0);
    return out;
  }

  private static void deliver(SegmentRegistry r, Branch b, Map<Integer, Integer> out, int depth) {
    if (depth > 10_000) {
      throw new AssertionError("forwarding loops");
    }
    switch (b) {
      case Branch.ToMember m -> out.merge(m.member(), 1, Integer::sum);
      case Branch.ToSegment s -> {
        ReplicationSegment seg = r.segment(s.next());
        if (seg == null) {
          throw new AssertionError("branch to missing segment " + s.next());
        }
        for (Branch next : seg.branches()) {
          deliver(r, next, out, depth + 1);
        }
      }
    }
  }

  static int node(Branch b) {
    return switch (b) {
      case Branch.ToMember m -> m.member();
      case Branch.ToSegment s -> s.next().node();
    };
  }
}
