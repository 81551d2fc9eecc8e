package org.netpubsub.network.multicast;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.Ipv6Address;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.topology.Hop;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The network side of SNAPS on OpenFlow: every group's per-source shortest-path trees, their
 * replication segments shared across trees ({@link SegmentRegistry}), and the flows and groups that
 * carry them (docs/multicast.md).
 *
 * <p>A segment on switch S is a group of type ALL named by {@link SegmentAddresses#of} and reached
 * by an exact {@code ipv6_dst} entry ({@link #PRIORITY_SEGMENT}). Each bucket rewrites {@code
 * ipv6_dst} to the next segment's address, or to a member host's address (and MAC), and leaves
 * towards it. Between segments a copy is routed by the next switch's segment prefix ({@link
 * #PRIORITY_SEGMENT_ROUTE}), and towards a member by the base app's unicast entries, so transit
 * switches hold one route per segment-holding switch and nothing per tree. A source sends each
 * message once, to its tree's entry (a segment address, or the only member's address).
 *
 * <p>Segments are never changed in place: a join or leave embeds the group's trees anew and
 * releases the old ones, so other groups' trees are never disturbed. A topology change re-embeds
 * every tree. Hosts the topology does not know yet are left out until it does.
 */
public final class GroupForwarding {
  /** Exact segment address → its group. Above unicast and PLEROMA content entries. */
  public static final int PRIORITY_SEGMENT = 32_000;

  /** A switch's segment prefix → one hop towards it. */
  public static final int PRIORITY_SEGMENT_ROUTE = 31_000;

  /** Segment {@code i} of a switch is its group {@code GROUP_BASE + i}. */
  public static final long GROUP_BASE = 0x5e00_0000L;

  /** "NPS" and app number 5 (multicast trees). */
  public static final long COOKIE = 0x4e50_5300_0000_0005L;

  /** Where one source sends, and how many segments its tree uses. */
  public record SourceEntry(Ipv6Address sendTo, int segments) {}

  /** A group as embedded now: its sources' entries and the hosts not (yet) known. */
  public record Placement(
      GroupSpec spec,
      SortedMap<Ipv6Address, SourceEntry> sources,
      SortedSet<Ipv6Address> unknownHosts) {}

  private final Map<String, GroupSpec> specs = new TreeMap<>();
  private final Map<String, Map<Ipv6Address, TreeSegments>> trees = new HashMap<>();
  private final Map<Long, SortedMap<Integer, ReplicationSegment>> segmentsBySwitch =
      new HashMap<>();
  private final Map<Long, Map<Long, Hop>> hopsTowards = new HashMap<>();
  private Topology topology;
  private TopologyGraph graph;
  private SegmentRegistry registry = SegmentRegistry.sharing();

  public GroupForwarding(Topology topology) {
    this.topology = topology;
    this.graph = TopologyGraph.of(topology);
  }

  /**
   * Creates or replaces a group; returns the switches whose flows or groups changed.
   *
   * @throws IllegalArgumentException if the spec is invalid
   */
  public Set<Long> put(GroupSpec spec) {
    Set<Long> before = segmentSwitches();
    Set<Long> changed = new TreeSet<>(releaseTrees(spec.name()));
    specs.put(spec.name(), spec);
    changed.addAll(embed(spec));
    return withRoutes(before, changed);
  }

  /** Removes a group (nothing if unknown); returns the switches whose state changed. */
  public Set<Long> remove(String name) {
    if (!specs.containsKey(name)) {
      return Set.of();
    }
    Set<Long> before = segmentSwitches();
    Set<Long> changed = new TreeSet<>(releaseTrees(name));
    specs.remove(name);
    return withRoutes(before, changed);
  }

  /** Re-embeds every tree on a new topology; returns every switch (all may have changed). */
  public Set<Long> topologyChanged(Topology next) {
    topology = next;
    graph = TopologyGraph.of(next);
    registry = SegmentRegistry.sharing();
    trees.clear();
    segmentsBySwitch.clear();
    hopsTowards.clear();
    specs.values().forEach(this::embed);
    return next.switches();
  }

  public Collection<GroupSpec> specs() {
    return List.copyOf(specs.values());
  }

  /** The group as embedded now, if it exists. */
  public Optional<Placement> placement(String name) {
    GroupSpec spec = specs.get(name);
    if (spec == null) {
      return Optional.empty();
    }
    SortedMap<Ipv6Address, SourceEntry> sources = new TreeMap<>();
    trees
        .getOrDefault(name, Map.of())
        .forEach(
            (src, t) -> sources.put(src, new SourceEntry(address(t.entry()), t.used().size())));
    SortedSet<Ipv6Address> unknown = new TreeSet<>();
    for (Ipv6Address a : spec.members()) {
      if (graph.hostNode(a).isEmpty()) {
        unknown.add(a);
      }
    }
    for (Ipv6Address a : spec.sources()) {
      if (graph.hostNode(a).isEmpty()) {
        unknown.add(a);
      }
    }
    return Optional.of(new Placement(spec, sources, unknown));
  }

  /** Replication segments installed now, over all switches. */
  public int segmentCount() {
    return registry.size();
  }

  /** The segment groups of one switch. */
  public List<GroupEntry> groups(long dpid) {
    List<GroupEntry> out = new ArrayList<>();
    segmentsBySwitch
        .getOrDefault(dpid, new TreeMap<>())
        .values()
        .forEach(s -> out.add(group(dpid, s)));
    return out;
  }

  /** The segment entries and segment routes of one switch. */
  public List<FlowEntry> flows(long dpid) {
    List<FlowEntry> out = new ArrayList<>();
    segmentsBySwitch
        .getOrDefault(dpid, new TreeMap<>())
        .keySet()
        .forEach(
            i ->
                out.add(
                    base(PRIORITY_SEGMENT, MaskedIpv6.exact(SegmentAddresses.of(dpid, i)))
                        .apply(Action.group(GROUP_BASE + i))
                        .build()));
    for (long holder : new TreeSet<>(segmentSwitches())) {
      if (holder != dpid) {
        hop(dpid, holder)
            .ifPresent(
                h ->
                    out.add(
                        base(PRIORITY_SEGMENT_ROUTE, SegmentAddresses.switchPrefix(holder))
                            .apply(Action.output(h.from().port()))
                            .build()));
      }
    }
    return out;
  }

  private Set<Long> embed(GroupSpec spec) {
    Set<Long> changed = new HashSet<>();
    Set<Integer> members = new TreeSet<>();
    spec.members().forEach(a -> graph.hostNode(a).ifPresent(members::add));
    Map<Ipv6Address, TreeSegments> mine = new TreeMap<>();
    for (Ipv6Address src : spec.sources()) {
      Optional<Integer> root = graph.hostNode(src);
      if (root.isEmpty()) {
        continue;
      }
      int[] distance = graph.graph().distancesFrom(root.get());
      Set<Integer> receivers = new TreeSet<>(members);
      receivers.remove(root.get());
      receivers.removeIf(m -> distance[m] < 0);
      if (receivers.isEmpty()) {
        continue;
      }
      TreeSegments t = registry.add(tree(spec.strategy(), root.get(), receivers));
      for (SegmentId id : t.created()) {
        long dpid = graph.dpid(id.node());
        segmentsBySwitch
            .computeIfAbsent(dpid, d -> new TreeMap<>())
            .put(id.index(), registry.segment(id));
        changed.add(dpid);
      }
      mine.put(src, t);
    }
    trees.put(spec.name(), mine);
    return changed;
  }

  private MulticastTree tree(TreeStrategy strategy, int root, Set<Integer> members) {
    return ShortestPathTrees.direct(graph.graph(), root, members);
  }

  /** Releases a group's trees; returns the switches that lost segments. */
  private Set<Long> releaseTrees(String name) {
    Set<Long> changed = new HashSet<>();
    Map<Ipv6Address, TreeSegments> old = trees.remove(name);
    if (old == null) {
      return changed;
    }
    for (TreeSegments t : old.values()) {
      for (SegmentId id : registry.release(t)) {
        long dpid = graph.dpid(id.node());
        SortedMap<Integer, ReplicationSegment> at = segmentsBySwitch.get(dpid);
        at.remove(id.index());
        if (at.isEmpty()) {
          segmentsBySwitch.remove(dpid);
        }
        changed.add(dpid);
      }
    }
    return changed;
  }

  /** When the set of segment-holding switches changes, every switch's routes change. */
  private Set<Long> withRoutes(Set<Long> before, Set<Long> changed) {
    return before.equals(segmentSwitches()) ? changed : topology.switches();
  }

  private Set<Long> segmentSwitches() {
    return Set.copyOf(segmentsBySwitch.keySet());
  }

  private GroupEntry group(long dpid, ReplicationSegment s) {
    List<Bucket> buckets = new ArrayList<>();
    for (Branch b : s.branches()) {
      buckets.add(
          switch (b) {
            case Branch.ToSegment(SegmentId next) -> {
              long to = graph.dpid(next.node());
              yield Bucket.of(
                  new Action.SetIpv6Dst(SegmentAddresses.of(to, next.index())),
                  Action.output(portTowards(dpid, to)));
            }
            case Branch.ToMember(int member) -> {
              Host h = graph.host(member);
              SwitchPort at = h.attachment();
              long port = at.dpid() == dpid ? at.port() : portTowards(dpid, at.dpid());
              yield Bucket.of(
                  new Action.SetIpv6Dst(h.address()),
                  new Action.SetEthDst(h.mac().value()),
                  Action.output(port));
            }
          });
    }
    return new GroupEntry(GROUP_BASE + s.id().index(), GroupType.ALL, buckets);
  }

  private Ipv6Address address(Branch entry) {
    return switch (entry) {
      case Branch.ToSegment(SegmentId id) -> SegmentAddresses.of(graph.dpid(id.node()), id.index());
      case Branch.ToMember(int member) -> graph.host(member).address();
    };
  }

  private long portTowards(long from, long to) {
    return hop(from, to)
        .orElseThrow(() -> new IllegalStateException("a tree spans unconnected switches"))
        .from()
        .port();
  }

  private Optional<Hop> hop(long from, long to) {
    return Optional.ofNullable(hopsTowards.computeIfAbsent(to, topology::nextHopsTo).get(from));
  }

  private static FlowEntry.Builder base(int priority, MaskedIpv6 dst) {
    return FlowEntry.builder()
        .table(0)
        .priority(priority)
        .cookie(COOKIE)
        .match(Match.builder().ipv6().ipv6Dst(dst).build());
  }
}
