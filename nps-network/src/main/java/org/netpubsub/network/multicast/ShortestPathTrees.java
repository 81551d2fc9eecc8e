package org.netpubsub.network.multicast;

import java.util.*;

/** STUB. */
public final class ShortestPathTrees {
  public static MulticastTree direct(Graph g, int root, Set<Integer> members) {
    int[] par = new int[g.size()];
    Arrays.fill(par, -2);
    par[root] = -1;
    ArrayDeque<Integer> q = new ArrayDeque<>(List.of(root));
    while (!q.isEmpty()) {
      int n = q.poll();
      for (int m : g.neighbours(n))
        if (par[m] == -2) {
          par[m] = n;
          q.add(m);
        }
    }
    Map<Integer, List<Integer>> ch = new TreeMap<>();
    Map<Integer, Integer> p = new TreeMap<>();
    for (int m : members) {
      int x = m;
      while (x != root && !p.containsKey(x)) {
        p.put(x, par[x]);
        ch.computeIfAbsent(par[x], k -> new ArrayList<>()).add(x);
        x = par[x];
      }
    }
    return new MulticastTree(root, Set.copyOf(members), ch, p);
  }
}
