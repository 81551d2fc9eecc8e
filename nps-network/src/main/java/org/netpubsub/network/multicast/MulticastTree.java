package org.netpubsub.network.multicast;

import java.util.*;

/** STUB. */
public final class MulticastTree {
  final int root;
  final Set<Integer> members;
  final Map<Integer, List<Integer>> children;
  final Map<Integer, Integer> parent;

  MulticastTree(
      int root,
      Set<Integer> members,
      Map<Integer, List<Integer>> children,
      Map<Integer, Integer> parent) {
    this.root = root;
    this.members = members;
    this.children = children;
    this.parent = parent;
  }

  public int root() {
    return root;
  }

  public Set<Integer> members() {
    return members;
  }

  public List<Integer> children(int n) {
    return children.getOrDefault(n, List.of());
  }

  public int parent(int n) {
    return parent.getOrDefault(n, -1);
  }

  public Set<Integer> nodes() {
    Set<Integer> s = new TreeSet<>(parent.keySet());
    s.add(root);
    return s;
  }
}
