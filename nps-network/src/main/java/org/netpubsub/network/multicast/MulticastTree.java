package org.netpubsub.network.multicast;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.IntUnaryOperator;

/**
 * A tree over graph nodes rooted at {@code root}, spanning the root and every member; a member may
 * be an inner node. It holds exactly the nodes on the members' paths to the root (anything else the
 * parent function knows is pruned), so every leaf is a member. The root is never its own member
 * (the publisher's edge serves its local subscribers itself): a root among the members is dropped.
 * Children are kept in ascending order, so equal trees compare and replicate alike.
 */
public final class MulticastTree {
  private final int root;
  private final Set<Integer> members;
  private final Map<Integer, Integer> parent = new HashMap<>();
  private final Map<Integer, List<Integer>> children = new HashMap<>();
  private final Set<Integer> nodes;

  private MulticastTree(int root, Collection<Integer> members, IntUnaryOperator parentOf) {
    if (root < 0) {
      throw new IllegalArgumentException("root " + root + " is not a node");
    }
    this.root = root;
    TreeSet<Integer> m = new TreeSet<>(members);
    m.remove(root);
    this.members = Collections.unmodifiableSet(m);
    TreeSet<Integer> all = new TreeSet<>();
    all.add(root);
    for (int member : m) {
      // Walk up until a node already on the tree (the root at the latest).
      int v = member;
      Set<Integer> chain = new HashSet<>();
      while (!all.contains(v)) {
        chain.add(v);
        int p = parentOf.applyAsInt(v);
        if (p < 0) {
          throw new IllegalArgumentException("member " + member + " has no path to root " + root);
        }
        if (chain.contains(p)) {
          throw new IllegalArgumentException("the parents of member " + member + " form a cycle");
        }
        parent.put(v, p);
        v = p;
      }
      all.addAll(chain);
    }
    this.nodes = Collections.unmodifiableSet(all);
    for (int v : all) {
      if (v != root) {
        children.computeIfAbsent(parent.get(v), k -> new ArrayList<>()).add(v);
      }
    }
    // TreeSet iteration added children in ascending order already.
    children.replaceAll((k, l) -> List.copyOf(l));
  }

  /**
   * The tree spanned by {@code members} and their parent chains up to {@code root} ({@code parents}
   * maps a node to its parent; the root needs no entry). Refuses members whose chain does not reach
   * the root.
   */
  public static MulticastTree of(
      int root, Collection<Integer> members, Map<Integer, Integer> parents) {
    return new MulticastTree(root, members, v -> parents.getOrDefault(v, -1));
  }

  /** The same, from a parent array indexed by node (-1: none). */
  static MulticastTree of(int root, Collection<Integer> members, int[] parents) {
    return new MulticastTree(root, members, v -> v < parents.length ? parents[v] : -1);
  }

  public int root() {
    return root;
  }

  /** Ascending; never contains the root. */
  public Set<Integer> members() {
    return members;
  }

  /** Ascending; empty for nodes off the tree and for leaves. */
  public List<Integer> children(int node) {
    return children.getOrDefault(node, List.of());
  }

  /** -1 for the root and nodes off the tree. */
  public int parent(int node) {
    return parent.getOrDefault(node, -1);
  }

  /** Ascending, the root included. */
  public Set<Integer> nodes() {
    return nodes;
  }

  public boolean isMember(int node) {
    return members.contains(node);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MulticastTree t
        && t.root == root
        && t.members.equals(members)
        && t.parent.equals(parent);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * root + members.hashCode()) + parent.hashCode();
  }

  @Override
  public String toString() {
    return "MulticastTree[root=" + root + ", members=" + members + ", parents=" + parent + "]";
  }
}
