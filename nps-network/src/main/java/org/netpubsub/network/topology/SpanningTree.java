package org.netpubsub.network.topology;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A shortest-path spanning tree of the switches a root reaches: each switch's uplink is its next
 * hop towards the root ({@link Topology#nextHopsTo}), so its depth is its distance from the root.
 * PLEROMA's configurators keep content-based flows on such a tree; rooted at the central switch
 * ({@link Topology#spanningTree}) it has the least height.
 */
public final class SpanningTree {
  private final long root;
  private final Map<Long, Hop> uplink;
  private final Map<Long, Integer> depth;
  private final Map<Long, SortedSet<Long>> children = new TreeMap<>(SwitchPort.DPID_ORDER);

  private SpanningTree(long root, Map<Long, Hop> uplink, Map<Long, Integer> depth) {
    this.root = root;
    this.uplink = uplink;
    this.depth = depth;
    for (long s : depth.keySet()) {
      children.put(s, new TreeSet<>(SwitchPort.DPID_ORDER));
    }
    uplink.forEach((child, hop) -> children.get(hop.to().dpid()).add(child));
  }

  /** The shortest-path tree of {@code root}'s component; IllegalArgumentException if unknown. */
  public static SpanningTree rootedAt(Topology t, long root) {
    if (!t.hasSwitch(root)) {
      throw new IllegalArgumentException("unknown switch " + Long.toHexString(root));
    }
    return new SpanningTree(root, t.nextHopsTo(root), t.distances(root));
  }

  public long root() {
    return root;
  }

  /** The switches of the tree, ascending. */
  public SortedSet<Long> switches() {
    SortedSet<Long> out = new TreeSet<>(SwitchPort.DPID_ORDER);
    out.addAll(depth.keySet());
    return out;
  }

  public boolean contains(long dpid) {
    return depth.containsKey(dpid);
  }

  /** The hop from a switch to its parent; empty for the root and switches outside the tree. */
  public Optional<Hop> uplink(long dpid) {
    return Optional.ofNullable(uplink.get(dpid));
  }

  public OptionalLong parent(long dpid) {
    Hop h = uplink.get(dpid);
    return h == null ? OptionalLong.empty() : OptionalLong.of(h.to().dpid());
  }

  /** The children of a switch, ascending (empty outside the tree). */
  public SortedSet<Long> children(long dpid) {
    return Collections.unmodifiableSortedSet(
        children.getOrDefault(dpid, new TreeSet<>(SwitchPort.DPID_ORDER)));
  }

  /** The distance from the root; IllegalArgumentException outside the tree. */
  public int depth(long dpid) {
    Integer d = depth.get(dpid);
    if (d == null) {
      throw new IllegalArgumentException(Long.toHexString(dpid) + " is not in the tree");
    }
    return d;
  }

  /** The greatest depth. */
  public int height() {
    return depth.values().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  /** The tree's links (one fewer than its switches). */
  public SortedSet<Link> links() {
    SortedSet<Link> out = new TreeSet<>();
    uplink.values().forEach(h -> out.add(h.link()));
    return out;
  }

  /** The ports of a switch that carry tree links (uplink and downlinks), ascending. */
  public SortedSet<Long> treePorts(long dpid) {
    SortedSet<Long> out = new TreeSet<>();
    uplink(dpid).ifPresent(h -> out.add(h.from().port()));
    for (long c : children(dpid)) {
      out.add(uplink.get(c).to().port());
    }
    return out;
  }

  /** The path between two switches along the tree (up to their common ancestor, then down). */
  public Path path(long from, long to) {
    depth(from);
    depth(to);
    List<Hop> up = new ArrayList<>();
    List<Hop> down = new ArrayList<>();
    long a = from;
    long b = to;
    while (a != b) {
      if (depth.get(a) >= depth.get(b)) {
        Hop h = uplink.get(a);
        up.add(h);
        a = h.to().dpid();
      } else {
        Hop h = uplink.get(b);
        down.add(new Hop(h.to(), h.from()));
        b = h.to().dpid();
      }
    }
    Collections.reverse(down);
    up.addAll(down);
    return new Path(from, to, up);
  }

  @Override
  public String toString() {
    return "SpanningTree{root=" + Long.toHexString(root) + ", links=" + links() + "}";
  }
}
