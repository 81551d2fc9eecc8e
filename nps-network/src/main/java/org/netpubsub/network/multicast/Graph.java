package org.netpubsub.network.multicast;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Undirected graph over nodes 0..n-1 with unit-cost links. A node's neighbours keep the order in
 * which their links were added: every tie in this package is broken by that order, so the same
 * graph always yields the same trees.
 */
public final class Graph {
  private final int[][] neighbours;
  private final int links;

  private Graph(int[][] neighbours, int links) {
    this.neighbours = neighbours;
    this.links = links;
  }

  public static Builder builder(int nodes) {
    return new Builder(nodes);
  }

  public int size() {
    return neighbours.length;
  }

  /** Undirected links (each counted once). */
  public int links() {
    return links;
  }

  public int degree(int node) {
    return neighbours[check(node)].length;
  }

  /** A copy: callers may not change the graph. */
  public int[] neighbours(int node) {
    return neighbours[check(node)].clone();
  }

  /** BFS hop counts from {@code node}, -1 where unreachable. */
  public int[] distancesFrom(int node) {
    return bfs(check(node)).distance;
  }

  /**
   * The nodes of the largest connected component, ascending; of equally large ones, the one with
   * the lowest node.
   */
  public List<Integer> largestComponent() {
    boolean[] seen = new boolean[size()];
    List<Integer> best = List.of();
    for (int s = 0; s < size(); s++) {
      if (seen[s]) {
        continue;
      }
      List<Integer> component = new ArrayList<>();
      int[] d = bfs(s).distance;
      for (int v = 0; v < size(); v++) {
        if (d[v] >= 0) {
          seen[v] = true;
          component.add(v);
        }
      }
      if (component.size() > best.size()) {
        best = component;
      }
    }
    return best;
  }

  /**
   * The subgraph on {@code nodes}, renumbered 0.. in list order; neighbour order is kept, links to
   * nodes outside are dropped.
   */
  public Graph induced(List<Integer> nodes) {
    int[] index = new int[size()];
    Arrays.fill(index, -1);
    for (int i = 0; i < nodes.size(); i++) {
      int v = check(nodes.get(i));
      if (index[v] >= 0) {
        throw new IllegalArgumentException("node " + v + " listed twice");
      }
      index[v] = i;
    }
    int[][] nbrs = new int[nodes.size()][];
    int ends = 0;
    for (int i = 0; i < nbrs.length; i++) {
      nbrs[i] =
          Arrays.stream(neighbours[nodes.get(i)])
              .filter(w -> index[w] >= 0)
              .map(w -> index[w])
              .toArray();
      ends += nbrs[i].length;
    }
    return new Graph(nbrs, ends / 2);
  }

  /** Breadth-first search; a node's parent is its first neighbour (in neighbour order) reached. */
  Bfs bfs(int source) {
    int[] distance = new int[size()];
    int[] parent = new int[size()];
    Arrays.fill(distance, -1);
    Arrays.fill(parent, -1);
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    distance[source] = 0;
    queue.add(source);
    while (!queue.isEmpty()) {
      int v = queue.poll();
      for (int w : neighbours[v]) {
        if (distance[w] < 0) {
          distance[w] = distance[v] + 1;
          parent[w] = v;
          queue.add(w);
        }
      }
    }
    return new Bfs(source, distance, parent);
  }

  int check(int node) {
    if (node < 0 || node >= size()) {
      throw new IllegalArgumentException("node " + node + " is not in 0.." + (size() - 1));
    }
    return node;
  }

  /** A BFS tree: hop distances and each reached node's parent towards the source (-1: none). */
  record Bfs(int source, int[] distance, int[] parent) {}

  /** Collects links; {@link #link} ignores a link it already has. */
  public static final class Builder {
    private final List<List<Integer>> adjacency = new ArrayList<>();
    private final Set<Long> seen = new HashSet<>();

    private Builder(int nodes) {
      if (nodes < 0) {
        throw new IllegalArgumentException("a graph cannot have " + nodes + " nodes");
      }
      for (int i = 0; i < nodes; i++) {
        adjacency.add(new ArrayList<>());
      }
    }

    /** Adds the link a–b once; refuses self-loops and nodes out of range. */
    public Builder link(int a, int b) {
      int n = adjacency.size();
      if (a < 0 || a >= n || b < 0 || b >= n) {
        throw new IllegalArgumentException(
            "link " + a + "-" + b + " leaves the nodes 0.." + (n - 1));
      }
      if (a == b) {
        throw new IllegalArgumentException("self-loop at node " + a);
      }
      if (seen.add((long) Math.min(a, b) * n + Math.max(a, b))) {
        adjacency.get(a).add(b);
        adjacency.get(b).add(a);
      }
      return this;
    }

    public Graph build() {
      int[][] nbrs = new int[adjacency.size()][];
      for (int i = 0; i < nbrs.length; i++) {
        nbrs[i] = adjacency.get(i).stream().mapToInt(Integer::intValue).toArray();
      }
      return new Graph(nbrs, seen.size());
    }
  }
}
