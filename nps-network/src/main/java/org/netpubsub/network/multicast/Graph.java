package org.netpubsub.network.multicast;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** STUB (replaced by the real one). */
public final class Graph {
  private final int[][] adj;

  private Graph(int[][] adj) {
    this.adj = adj;
  }

  public static Builder builder(int nodes) {
    return new Builder(nodes);
  }

  public static final class Builder {
    private final List<List<Integer>> adj = new ArrayList<>();

    Builder(int n) {
      for (int i = 0; i < n; i++) adj.add(new ArrayList<>());
    }

    public Builder link(int a, int b) {
      if (!adj.get(a).contains(b)) {
        adj.get(a).add(b);
        adj.get(b).add(a);
      }
      return this;
    }

    public Graph build() {
      int[][] a = new int[adj.size()][];
      for (int i = 0; i < a.length; i++) a[i] = adj.get(i).stream().mapToInt(x -> x).toArray();
      return new Graph(a);
    }
  }

  public int size() {
    return adj.length;
  }

  public int[] neighbours(int node) {
    return adj[node].clone();
  }

  public int[] distancesFrom(int node) {
    int[] d = new int[adj.length];
    Arrays.fill(d, -1);
    d[node] = 0;
    ArrayDeque<Integer> q = new ArrayDeque<>(List.of(node));
    while (!q.isEmpty()) {
      int n = q.poll();
      for (int m : adj[n])
        if (d[m] < 0) {
          d[m] = d[n] + 1;
          q.add(m);
        }
    }
    return d;
  }
}
