package org.netpubsub.network.multicast;

import java.util.Arrays;
import java.util.Collection;
import java.util.Set;

/**
 * The two tree strategies of SNAPS §IV-A on hop counts. Ties between equally short paths go to the
 * neighbour met first in the graph's neighbour order (BFS), so trees are reproducible. A root among
 * the members is dropped (see {@link MulticastTree}); a member the root cannot reach is refused.
 */
public final class ShortestPathTrees {
  private ShortestPathTrees() {}

  /**
   * Shortest-path tree from root (BFS, ties broken by neighbour order) pruned to the members'
   * paths.
   */
  public static MulticastTree direct(Graph g, int root, Set<Integer> members) {
    Graph.Bfs bfs = g.bfs(g.check(root));
    checkReachable(g, bfs, members);
    return MulticastTree.of(root, members, bfs.parent());
  }

  /**
   * Root to rendezvous point {@code rp} along the shortest path P, then from rp along its BFS tree
   * to each member. Where a member's path from rp meets P before rp, following both would revisit
   * nodes, so the member's branch is grafted onto P where it first meets it: nodes on P keep their
   * parent on P, every other node takes its parent in rp's BFS tree. Climbing from a member thus
   * goes towards rp until it reaches P, then along P to the root: a tree, and P is cut after its
   * last node that leads to a member. With rp = root this is {@link #direct}.
   */
  public static MulticastTree viaRendezvous(Graph g, int root, int rp, Set<Integer> members) {
    Graph.Bfs fromRoot = g.bfs(g.check(root));
    Graph.Bfs fromRp = g.bfs(g.check(rp));
    if (fromRoot.distance()[rp] < 0) {
      throw new IllegalArgumentException("rendezvous point " + rp + " is unreachable from " + root);
    }
    checkReachable(g, fromRp, members);
    int[] parent = fromRp.parent().clone();
    // P, from rp back to the root, overrides rp's BFS parents on its nodes.
    for (int v = rp; v != root; v = fromRoot.parent()[v]) {
      parent[v] = fromRoot.parent()[v];
    }
    parent[root] = -1;
    return MulticastTree.of(root, members, parent);
  }

  /**
   * The node with the least average hop distance to the border nodes (ties: lowest id). Nodes that
   * cannot reach every border node are never chosen.
   */
  public static int rendezvousPoint(Graph g, Collection<Integer> borderNodes) {
    if (borderNodes.isEmpty()) {
      throw new IllegalArgumentException("no border nodes to centre a rendezvous point on");
    }
    long[] sum = new long[g.size()];
    boolean[] cut = new boolean[g.size()];
    for (int b : Set.copyOf(borderNodes)) {
      int[] d = g.distancesFrom(b);
      for (int v = 0; v < d.length; v++) {
        if (d[v] < 0) {
          cut[v] = true;
        }
        sum[v] += d[v];
      }
    }
    int best = -1;
    for (int v = 0; v < sum.length; v++) {
      if (!cut[v] && (best < 0 || sum[v] < sum[best])) {
        best = v;
      }
    }
    if (best < 0) {
      throw new IllegalArgumentException(
          "no node reaches all border nodes " + Arrays.toString(borderNodes.toArray()));
    }
    return best;
  }

  private static void checkReachable(Graph g, Graph.Bfs bfs, Set<Integer> members) {
    for (int m : members) {
      if (bfs.distance()[g.check(m)] < 0) {
        throw new IllegalArgumentException("member " + m + " is unreachable from " + bfs.source());
      }
    }
  }
}
