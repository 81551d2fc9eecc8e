package org.netpubsub.network.multicast;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The registry's obviously-correct twin: descendant leaves by a fresh DFS per node, reuse by a
 * linear scan of every installed segment, and a segment is freed when no live tree's list of used
 * segments mentions it (no reference counts).
 */
final class NaiveSegmentRegistry {
  private final boolean share;
  private final List<ReplicationSegment> installed = new ArrayList<>();
  private final List<TreeSegments> live = new ArrayList<>();

  NaiveSegmentRegistry(boolean share) {
    this.share = share;
  }

  TreeSegments add(MulticastTree tree) {
    List<SegmentId> created = new ArrayList<>();
    Branch entry = copyArrivingAt(tree, tree.root(), created);
    List<SegmentId> used = new ArrayList<>();
    passThrough(entry, used);
    TreeSegments t = new TreeSegments(tree.root(), entry, used, created);
    live.add(t);
    return t;
  }

  List<SegmentId> release(TreeSegments tree) {
    if (!live.remove(tree)) {
      throw new IllegalArgumentException("not added");
    }
    Set<SegmentId> stillUsed = new HashSet<>();
    live.forEach(t -> stillUsed.addAll(t.used()));
    List<SegmentId> freed = new ArrayList<>();
    for (int i = tree.used().size() - 1; i >= 0; i--) {
      SegmentId id = tree.used().get(i);
      if (!stillUsed.contains(id) && segment(id) != null) {
        installed.remove(segment(id));
        freed.add(id);
      }
    }
    return freed;
  }

  ReplicationSegment segment(SegmentId id) {
    for (ReplicationSegment s : installed) {
      if (s.id().equals(id)) {
        return s;
      }
    }
    return null;
  }

  int size() {
    return installed.size();
  }

  private static Set<Integer> leavesBelow(MulticastTree tree, int n) {
    Set<Integer> out = new HashSet<>();
    List<Integer> stack = new ArrayList<>(List.of(n));
    while (!stack.isEmpty()) {
      int v = stack.remove(stack.size() - 1);
      if (tree.members().contains(v)) {
        out.add(v);
      }
      stack.addAll(tree.children(v));
    }
    return out;
  }

  private Branch copyArrivingAt(MulticastTree tree, int n, List<SegmentId> created) {
    List<Integer> kids = tree.children(n);
    boolean member = tree.members().contains(n);
    if (kids.size() + (member ? 1 : 0) < 2) {
      return member ? new Branch.ToMember(n) : copyArrivingAt(tree, kids.get(0), created);
    }
    Set<Integer> leaves = leavesBelow(tree, n);
    if (share) {
      for (ReplicationSegment s : installed) {
        if (s.id().node() == n && s.descendantLeaves().equals(leaves)) {
          return new Branch.ToSegment(s.id());
        }
      }
    }
    List<Branch> branches = new ArrayList<>();
    if (member) {
      branches.add(new Branch.ToMember(n));
    }
    for (int c : kids) {
      branches.add(copyArrivingAt(tree, c, created));
    }
    SegmentId id = new SegmentId(n, index(n, leaves));
    installed.add(new ReplicationSegment(id, leaves, branches));
    created.add(id);
    return new Branch.ToSegment(id);
  }

  /**
   * The registry's numbering, spelt out: the hash of the node and its leaves in ascending order,
   * then the first index from there (1 to MAX_INDEX, round) no installed segment of the node holds.
   */
  private int index(int n, Set<Integer> leaves) {
    long h = ContentIds.add(ContentIds.seed(1), n);
    for (int l : new TreeSet<>(leaves)) {
      h = ContentIds.add(h, l);
    }
    int index = 1 + (int) Math.floorMod(h, (long) SegmentRegistry.MAX_INDEX);
    while (segment(new SegmentId(n, index)) != null) {
      index = index == SegmentRegistry.MAX_INDEX ? 1 : index + 1;
    }
    return index;
  }

  private void passThrough(Branch b, List<SegmentId> used) {
    if (b instanceof Branch.ToSegment s) {
      segment(s.next()).branches().forEach(next -> passThrough(next, used));
      used.add(s.next());
    }
  }
}
