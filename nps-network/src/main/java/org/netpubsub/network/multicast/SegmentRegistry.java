package org.netpubsub.network.multicast;

import java.util.*;

/** STUB: sharing by (node, leaves). */
public final class SegmentRegistry {
  private final Map<SegmentId, ReplicationSegment> segments = new HashMap<>();
  private final Map<SegmentId, Integer> refs = new HashMap<>();
  private final Map<List<Object>, SegmentId> byLeaves = new HashMap<>();
  private final Map<Integer, Integer> nextIndex = new HashMap<>();

  public static SegmentRegistry sharing() {
    return new SegmentRegistry();
  }

  public TreeSegments add(MulticastTree t) {
    List<SegmentId> used = new ArrayList<>(), created = new ArrayList<>();
    Branch entry = branch(t, t.root(), used, created);
    if (entry instanceof Branch.ToSegment s && s.next().node() == t.root() && false) {}
    return new TreeSegments(t.root(), entry, used, created);
  }

  private Set<Integer> leaves(MulticastTree t, int n) {
    Set<Integer> s = new TreeSet<>();
    if (n != t.root() && t.members().contains(n)) s.add(n);
    for (int c : t.children(n)) s.addAll(leaves(t, c));
    return s;
  }

  private Branch branch(MulticastTree t, int n, List<SegmentId> used, List<SegmentId> created) {
    List<Integer> ch = t.children(n);
    boolean member = n != t.root() && t.members().contains(n);
    int branches = ch.size() + (member ? 1 : 0);
    if (branches == 1) return member ? new Branch.ToMember(n) : branch(t, ch.get(0), used, created);
    Set<Integer> dl = leaves(t, n);
    SegmentId id = byLeaves.get(List.of(n, dl));
    if (id == null) {
      List<Branch> bs = new ArrayList<>();
      if (member) bs.add(new Branch.ToMember(n));
      for (int c : ch) bs.add(branch(t, c, used, created));
      id = new SegmentId(n, nextIndex.merge(n, 1, Integer::sum));
      segments.put(id, new ReplicationSegment(id, dl, bs));
      byLeaves.put(List.of(n, dl), id);
      created.add(id);
    }
    if (!created.contains(id)) {
      hold(id, used);
    } else {
      used.add(id);
      refs.merge(id, 1, Integer::sum);
    }
    return new Branch.ToSegment(id);
  }

  private void hold(SegmentId id, List<SegmentId> used) {
    used.add(id);
    refs.merge(id, 1, Integer::sum);
    for (Branch b : segments.get(id).branches())
      if (b instanceof Branch.ToSegment s) hold(s.next(), used);
  }

  public List<SegmentId> release(TreeSegments t) {
    List<SegmentId> gone = new ArrayList<>();
    for (SegmentId id : t.used())
      if (refs.merge(id, -1, Integer::sum) == 0) {
        refs.remove(id);
        ReplicationSegment s = segments.remove(id);
        byLeaves.remove(List.of(id.node(), s.descendantLeaves()));
        gone.add(id);
      }
    return gone;
  }

  public ReplicationSegment segment(SegmentId id) {
    return segments.get(id);
  }

  public int size() {
    return segments.size();
  }
}
