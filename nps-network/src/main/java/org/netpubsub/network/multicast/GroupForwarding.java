package org.netpubsub.network.multicast;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.topology.Hop;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The network side of SNAPS on OpenFlow: every group's per-source shortest-path trees, their
 * replication segments shared across trees ({@link SegmentRegistry}), and the flows and groups that
 * carry them (docs/multicast.md).
 *
 * <p>A segment on switch S is a group of type ALL reached by an exact {@code ipv6_dst} entry for
 * its address ({@link SegmentAddresses}, {@link #PRIORITY_SEGMENT}). Each bucket rewrites {@code
 * ipv6_dst} to the next segment's address, or to a member's local SID (or, on S itself, to the
 * member's own address and MAC), and leaves towards it. Between switches a copy is routed by the
 * destination switch's segment prefix ({@link #PRIORITY_SEGMENT_ROUTE}) and nothing else, so
 * transit switches hold one route per switch and nothing per tree, and traffic engineering moves
 * every copy by moving those routes. A source sends each message once, to its entry SID: an address
 * on its own switch, fixed for the group and source while the source stays there, whose entry
 * forwards to wherever the tree starts now, so re-embedding a tree never moves it.
 *
 * <p>Segments are never changed in place: a join or leave embeds the group's trees anew and
 * releases the old ones, so other groups' trees are never disturbed. A topology change, or a link
 * to avoid ({@link #avoid}), re-embeds every tree. Hosts the topology does not know yet are left
 * out until it does.
 *
 * <p>Every number that reaches a switch is a function of what it stands for (issue 27 part 7): a
 * segment's index hashes its switch and the addresses of its leaves ({@link SegmentRegistry}), an
 * entry SID hashes its group's name and its source's address ({@link ContentIds}). A controller
 * that restarts and learns the same groups in another order, without the puts and removals that
 * came before, writes the same flows and groups and hands sources the same addresses
 * (RequestOrderProperties).
 */
public final class GroupForwarding {
  /**
   * Exact segment address, entry SID or local SID → its group, tree or host. Above unicast and
   * PLEROMA content.
   */
  public static final int PRIORITY_SEGMENT = SwitchLayout.PRIORITY_SEGMENT;

  /** A switch's segment prefix → one hop towards it. */
  public static final int PRIORITY_SEGMENT_ROUTE = SwitchLayout.PRIORITY_SEGMENT_ROUTE;

  /** Segment {@code i} of a switch is its group {@code GROUP_BASE + i}. */
  public static final long GROUP_BASE = SwitchLayout.MULTICAST_GROUP_BASE;

  /** "NPS" and app number 5 (multicast trees). */
  public static final long COOKIE = SwitchLayout.MULTICAST_COOKIE;

  /**
   * Where one source sends (its entry SID), how many segments its tree uses, and where the entry
   * forwards to now (the first segment, or the only member's local SID).
   */
  public record SourceEntry(
      Ipv6Address sendTo, int segments, Ipv6Address treeEntry, List<TreeEdge> tree) {
    public SourceEntry {
      tree = List.copyOf(tree);
    }
  }

  /**
   * One copy of a tree, between the switches that replicate it: from switch {@code from} (the
   * source's, for the entry, or a segment's) to the switch {@code to} of the next segment or, when
   * {@code member} is set, of that member. Unicast routes carry it between them (the hops are not
   * listed); {@code from == to} when the next segment or member is on the same switch.
   */
  public record TreeEdge(long from, long to, Ipv6Address member) {}

  /**
   * Entry SIDs per switch and writer: a writer numbers them from its base, within this many (a
   * cluster's writer epochs get disjoint ranges of this size).
   */
  public static final int ENTRY_SID_SPAN = 1 << 20;

  /** A source's entry SID: its switch, its slot in the writer's range, and its number there. */
  private record EntrySid(long dpid, int slot, int number) {
    Ipv6Address address() {
      return SegmentAddresses.entrySid(dpid, number);
    }
  }

  /** A group as embedded now: its sources' entries and the hosts not (yet) known. */
  public record Placement(
      GroupSpec spec,
      SortedMap<Ipv6Address, SourceEntry> sources,
      SortedSet<Ipv6Address> unknownHosts) {}

  private final Map<String, GroupSpec> specs = new TreeMap<>();
  // in name order: a switch's flows are listed alike whatever order the groups came in
  private final Map<String, Map<Ipv6Address, TreeSegments>> trees = new TreeMap<>();
  private final Map<Long, SortedMap<Integer, ReplicationSegment>> segmentsBySwitch =
      new HashMap<>();
  private final Map<Long, Map<Long, Hop>> hopsTowards = new HashMap<>();
  // kept across re-embeddings: that is what makes them stable
  private final Map<String, Map<Ipv6Address, EntrySid>> entrySids = new HashMap<>();
  private final ContentIds entrySidSlots = new ContentIds(ENTRY_SID_SPAN);
  private final int entrySidBase;
  private Topology topology;
  private Set<Link> avoided = Set.of();
  private Topology view;
  private TopologyGraph graph;
  private SegmentRegistry registry = SegmentRegistry.sharingWholeShapes(this::label);

  public GroupForwarding(Topology topology) {
    this(topology, 0);
  }

  /**
   * Numbers entry SIDs from {@code entrySidBase} on each switch (within {@link #ENTRY_SID_SPAN}
   * numbers, wrapping at 2^30), so that a successor writing the same groups from another base (a
   * controller process that takes multicast over) never gives an address a source may still send to
   * to another group's tree. A writer with the same base gives every source the same address.
   */
  public GroupForwarding(Topology topology, int entrySidBase) {
    if (entrySidBase < 0 || entrySidBase >= SegmentAddresses.ENTRY_BASE) {
      throw new IllegalArgumentException("an entry SID base is 0 to 2^30-1: " + entrySidBase);
    }
    this.entrySidBase = entrySidBase;
    this.topology = topology;
    this.view = topology;
    this.graph = TopologyGraph.of(topology);
  }

  /**
   * Creates or replaces a group; returns the switches whose flows or groups changed.
   *
   * @throws IllegalArgumentException if the spec is invalid
   */
  public Set<Long> put(GroupSpec spec) {
    boolean wasActive = active();
    Set<Long> changed = new TreeSet<>(releaseTrees(spec.name()));
    specs.put(spec.name(), spec);
    changed.addAll(embed(spec));
    entrySids.getOrDefault(spec.name(), Map.of()).values().forEach(e -> changed.add(e.dpid()));
    return wasActive == active() ? changed : view.switches();
  }

  /** Removes a group (nothing if unknown); returns the switches whose state changed. */
  public Set<Long> remove(String name) {
    if (!specs.containsKey(name)) {
      return Set.of();
    }
    boolean wasActive = active();
    Set<Long> changed = new TreeSet<>(releaseTrees(name));
    specs.remove(name);
    Map<Ipv6Address, EntrySid> gone = entrySids.remove(name);
    if (gone != null) {
      gone.values()
          .forEach(
              e -> {
                changed.add(e.dpid());
                entrySidSlots.free(e.dpid(), e.slot());
              });
    }
    return wasActive == active() ? changed : view.switches();
  }

  /** Re-embeds every tree on a new topology; returns every switch (all may have changed). */
  public Set<Long> topologyChanged(Topology next) {
    topology = next;
    rebuildView();
    reembedAll();
    return next.switches();
  }

  private void reembedAll() {
    registry = SegmentRegistry.sharingWholeShapes(this::label);
    trees.clear();
    segmentsBySwitch.clear();
    specs.values().forEach(this::embed);
  }

  /**
   * Traffic engineering: trees and segment routes avoid these links from now on (each one as long
   * as its ends stay connected without it). Every tree is embedded anew on the new graph, because a
   * segment may only be shared by trees computed on the same graph: there, equal leaf sets mean
   * identical subtrees, while a segment kept from the old graph could send a copy back out of the
   * port it came in by. Returns the switches whose state may have changed.
   */
  public Set<Long> avoid(Set<Link> links) {
    if (links.equals(avoided)) {
      return Set.of();
    }
    avoided = Set.copyOf(links);
    Topology before = view;
    rebuildView();
    if (view.equals(before)) {
      return Set.of();
    }
    reembedAll();
    return view.switches();
  }

  /** The links avoided now (those of {@link #avoid} that could be). */
  public Set<Link> avoidedLinks() {
    Set<Link> out = new TreeSet<>(topology.links());
    out.removeAll(view.links());
    return out;
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
            (src, t) ->
                sources.put(
                    src,
                    new SourceEntry(
                        entrySids.get(name).get(src).address(),
                        t.used().size(),
                        address(t.entry()),
                        edges(t))));
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

  /**
   * The entries of one switch: its segments, and while any tree exists, the local SIDs of its hosts
   * and a route to every other switch's segment prefix.
   */
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
    if (!active() || !view.hasSwitch(dpid)) {
      return out;
    }
    trees.forEach(
        (name, bySource) ->
            bySource.forEach(
                (src, t) -> {
                  EntrySid e = entrySids.get(name).get(src);
                  if (e.dpid() == dpid) {
                    out.add(
                        base(PRIORITY_SEGMENT, MaskedIpv6.exact(e.address()))
                            .apply(actions(dpid, t.entry()).toArray(Action[]::new))
                            .build());
                  }
                }));
    for (int node : graph.hostNodes()) {
      Host h = graph.host(node);
      if (h.attachment().dpid() == dpid) {
        out.add(
            base(PRIORITY_SEGMENT, MaskedIpv6.exact(localSid(node)))
                .apply(deliver(h).toArray(Action[]::new))
                .build());
      }
    }
    for (long other : view.switches()) {
      if (other != dpid) {
        hop(dpid, other)
            .ifPresent(
                h ->
                    out.add(
                        base(PRIORITY_SEGMENT_ROUTE, SegmentAddresses.switchPrefix(other))
                            .apply(Action.output(h.from().port()))
                            .build()));
      }
    }
    return out;
  }

  private boolean active() {
    return trees.values().stream().anyMatch(m -> !m.isEmpty());
  }

  private void rebuildView() {
    Topology v = topology;
    for (Link l : new TreeSet<>(avoided)) {
      Topology without = v.links().contains(l) ? v.removeLink(l) : v;
      if (without.shortestPath(l.a().dpid(), l.b().dpid()).isPresent()) {
        v = without;
      }
    }
    view = v;
    graph = TopologyGraph.of(view);
    hopsTowards.clear();
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
      entrySid(spec.name(), src, graph.host(root.get()).attachment().dpid());
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
    Map<Ipv6Address, EntrySid> sids = entrySids.getOrDefault(spec.name(), new HashMap<>());
    sids.entrySet()
        .removeIf(
            e -> {
              boolean gone = !spec.sources().contains(e.getKey());
              if (gone) {
                entrySidSlots.free(e.getValue().dpid(), e.getValue().slot());
              }
              return gone;
            });
    return changed;
  }

  /** RP trees fall back to direct ones when the network has no rendezvous point. */
  private MulticastTree tree(TreeStrategy strategy, int root, Set<Integer> members) {
    if (strategy == TreeStrategy.RENDEZVOUS_POINT) {
      OptionalInt rp = graph.rendezvousPoint();
      if (rp.isPresent()) {
        return ShortestPathTrees.viaRendezvous(graph.graph(), root, rp.getAsInt(), members);
      }
    }
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

  private GroupEntry group(long dpid, ReplicationSegment s) {
    List<Bucket> buckets = new ArrayList<>();
    for (Branch b : s.branches()) {
      buckets.add(Bucket.of(actions(dpid, b).toArray(Action[]::new)));
    }
    return new GroupEntry(GROUP_BASE + s.id().index(), GroupType.ALL, buckets);
  }

  /** What switch {@code dpid} does to send a copy along {@code b}. */
  private List<Action> actions(long dpid, Branch b) {
    List<Action> actions = new ArrayList<>();
    switch (b) {
      case Branch.ToSegment(SegmentId next) -> {
        long to = graph.dpid(next.node());
        if (to == dpid) {
          actions.add(Action.group(GROUP_BASE + next.index())); // an entry SID on the same switch
        } else {
          actions.add(new Action.SetIpv6Dst(SegmentAddresses.of(to, next.index())));
          actions.add(Action.output(portTowards(dpid, to)));
        }
      }
      case Branch.ToMember(int member) -> {
        SwitchPort at = graph.host(member).attachment();
        if (at.dpid() == dpid) {
          actions.addAll(deliver(graph.host(member)));
        } else {
          actions.add(new Action.SetIpv6Dst(localSid(member)));
          actions.add(Action.output(portTowards(dpid, at.dpid())));
        }
      }
    }
    return actions;
  }

  /**
   * The source's entry SID for the group, allocated once per switch it sits on: a hash of the
   * group's name and the source's address, so the same group and source get the same address from
   * any writer with the same base, whatever else it was asked before.
   */
  private void entrySid(String name, Ipv6Address src, long dpid) {
    Map<Ipv6Address, EntrySid> mine = entrySids.computeIfAbsent(name, n -> new HashMap<>());
    EntrySid e = mine.get(src);
    if (e == null || e.dpid() != dpid) {
      if (e != null) {
        entrySidSlots.free(e.dpid(), e.slot());
      }
      long h = ContentIds.add(ContentIds.add(ContentIds.seed(2), name), addressHash(src));
      int slot = entrySidSlots.take(dpid, h);
      int n = (int) ((entrySidBase + (long) slot) % SegmentAddresses.ENTRY_BASE);
      mine.put(src, new EntrySid(dpid, slot, n));
    }
  }

  /** A node's label for segment numbers: a switch's dpid, a host's address (hashed). */
  private long label(int node) {
    return graph.isSwitch(node) ? graph.dpid(node) : addressHash(graph.host(node).address());
  }

  private static long addressHash(Ipv6Address a) {
    return ContentIds.add(ContentIds.add(ContentIds.seed(3), a.high()), a.low());
  }

  /** The last rewrite: the member's own address and MAC, out of its port. */
  private static List<Action> deliver(Host h) {
    return List.of(
        new Action.SetIpv6Dst(h.address()),
        new Action.SetEthDst(h.mac().value()),
        Action.output(h.attachment().port()));
  }

  private Ipv6Address localSid(int hostNode) {
    return SegmentAddresses.localSid(
        graph.host(hostNode).attachment().dpid(), graph.hostNumber(hostNode));
  }

  /** A tree's copies: the source's switch to the entry, then each segment to its branches. */
  private List<TreeEdge> edges(TreeSegments t) {
    List<TreeEdge> out = new ArrayList<>();
    out.add(edge(graph.host(t.root()).attachment().dpid(), t.entry()));
    for (int i = t.used().size() - 1; i >= 0; i--) { // upstream first, as a copy travels
      ReplicationSegment s = registry.segment(t.used().get(i));
      for (Branch b : s.branches()) {
        out.add(edge(graph.dpid(s.id().node()), b));
      }
    }
    return out;
  }

  private TreeEdge edge(long from, Branch to) {
    return switch (to) {
      case Branch.ToSegment(SegmentId id) -> new TreeEdge(from, graph.dpid(id.node()), null);
      case Branch.ToMember(int member) -> {
        Host h = graph.host(member);
        yield new TreeEdge(from, h.attachment().dpid(), h.address());
      }
    };
  }

  private Ipv6Address address(Branch entry) {
    return switch (entry) {
      case Branch.ToSegment(SegmentId id) -> SegmentAddresses.of(graph.dpid(id.node()), id.index());
      case Branch.ToMember(int member) -> localSid(member);
    };
  }

  private long portTowards(long from, long to) {
    return hop(from, to)
        .orElseThrow(() -> new IllegalStateException("a tree spans unconnected switches"))
        .from()
        .port();
  }

  private Optional<Hop> hop(long from, long to) {
    return Optional.ofNullable(hopsTowards.computeIfAbsent(to, view::nextHopsTo).get(from));
  }

  private static FlowEntry.Builder base(int priority, MaskedIpv6 dst) {
    return FlowEntry.builder()
        .table(SwitchLayout.TABLE_0)
        .priority(priority)
        .cookie(COOKIE)
        .match(Match.builder().ipv6().ipv6Dst(dst).build());
  }
}
