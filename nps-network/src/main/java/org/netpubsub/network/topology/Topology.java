package org.netpubsub.network.topology;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.content.address.Ipv6Address;

/**
 * The network as an immutable value: switches (dpid and ports), undirected links between switch
 * ports (parallel links allowed; a port has at most one link), and hosts at edge ports (ports
 * without a link). Every update returns a new topology. Path queries ({@link #distances}, {@link
 * #nextHop}, {@link #shortestPath}, {@link #spanningTree}) count hops and break ties by the lowest
 * (neighbour dpid, local port, peer port), so paths are stable and every suffix of a shortest path
 * is itself the shortest path reported.
 */
public final class Topology {
  /** No switches, links or hosts. */
  public static final Topology EMPTY =
      new Topology(new TreeMap<>(SwitchPort.DPID_ORDER), new TreeSet<>(), new TreeMap<>());

  // Never mutated once built; updates copy them.

  /** The order in which a switch's links are tried as next hops: peer dpid, local port, peer. */
  private static final Comparator<Hop> HOP_ORDER =
      Comparator.comparing((Hop h) -> h.to().dpid(), SwitchPort.DPID_ORDER)
          .thenComparingLong(h -> h.from().port())
          .thenComparingLong(h -> h.to().port());

  private final TreeMap<Long, SortedSet<Long>> ports;
  private final TreeSet<Link> links;
  private final TreeMap<Ipv6Address, Host> hosts;

  /** Derived: the link at each linked port, and each switch's links leaving it in HOP_ORDER. */
  private final Map<SwitchPort, Link> linkAt = new TreeMap<>();

  private final Map<Long, List<Hop>> hopsFrom = new TreeMap<>(SwitchPort.DPID_ORDER);

  private Topology(
      TreeMap<Long, SortedSet<Long>> ports, TreeSet<Link> links, TreeMap<Ipv6Address, Host> hosts) {
    this.ports = ports;
    this.links = links;
    this.hosts = hosts;
    for (long dpid : ports.keySet()) {
      hopsFrom.put(dpid, new ArrayList<>());
    }
    for (Link l : links) {
      linkAt.put(l.a(), l);
      linkAt.put(l.b(), l);
      if (l.a().dpid() != l.b().dpid()) { // a port looped back to its own switch leads nowhere
        hopsFrom.get(l.a().dpid()).add(l.from(l.a()));
        hopsFrom.get(l.b().dpid()).add(l.from(l.b()));
      }
    }
    hopsFrom.values().forEach(list -> list.sort(HOP_ORDER));
  }

  // ---- queries on the graph ----

  /** The switches' datapath ids, ascending (unsigned). */
  public SortedSet<Long> switches() {
    return Collections.unmodifiableSortedSet(ports.navigableKeySet());
  }

  public boolean hasSwitch(long dpid) {
    return ports.containsKey(dpid);
  }

  /** The known ports of a switch (empty if the switch is unknown). */
  public SortedSet<Long> ports(long dpid) {
    return ports.getOrDefault(dpid, Collections.emptySortedSet());
  }

  /** Every switch with its ports. */
  public SortedMap<Long, SortedSet<Long>> switchPorts() {
    return Collections.unmodifiableSortedMap(ports);
  }

  public SortedSet<Link> links() {
    return Collections.unmodifiableSortedSet(links);
  }

  /** The link at a port, if the port has one. */
  public Optional<Link> linkAt(SwitchPort port) {
    return Optional.ofNullable(linkAt.get(port));
  }

  /** The links leaving a switch, as hops out of it, in tie-break order. */
  public List<Hop> hopsFrom(long dpid) {
    return Collections.unmodifiableList(hopsFrom.getOrDefault(dpid, List.of()));
  }

  /** The switches one link away (a switch is not its own neighbour). */
  public SortedSet<Long> neighbours(long dpid) {
    SortedSet<Long> out = new TreeSet<>(SwitchPort.DPID_ORDER);
    hopsFrom(dpid).forEach(h -> out.add(h.to().dpid()));
    return out;
  }

  /** True if the port is a known port of a known switch and has no switch-to-switch link. */
  public boolean isEdgePort(SwitchPort p) {
    return ports(p.dpid()).contains(p.port()) && !linkAt.containsKey(p);
  }

  /** Every edge port, ascending. */
  public SortedSet<SwitchPort> edgePorts() {
    SortedSet<SwitchPort> out = new TreeSet<>();
    ports.forEach(
        (dpid, ps) ->
            ps.forEach(
                p -> {
                  SwitchPort sp = new SwitchPort(dpid, p);
                  if (!linkAt.containsKey(sp)) {
                    out.add(sp);
                  }
                }));
    return out;
  }

  // ---- hosts ----

  /** The hosts by address. */
  public SortedMap<Ipv6Address, Host> hosts() {
    return Collections.unmodifiableSortedMap(hosts);
  }

  public Optional<Host> host(Ipv6Address address) {
    return Optional.ofNullable(hosts.get(address));
  }

  /** The hosts attached at a port. */
  public List<Host> hostsAt(SwitchPort port) {
    return hosts.values().stream().filter(h -> h.attachment().equals(port)).toList();
  }

  // ---- paths (see Paths) ----

  /** Hop counts from {@code from} to every switch it reaches (itself at 0). */
  public Map<Long, Integer> distances(long from) {
    return Paths.distances(this, from);
  }

  /** The first hop of the shortest path from {@code from} to {@code to}; empty if none or same. */
  public Optional<Hop> nextHop(long from, long to) {
    return Optional.ofNullable(nextHopsTo(to).get(from));
  }

  /** For every switch that reaches {@code to} (other than itself), its next hop towards it. */
  public Map<Long, Hop> nextHopsTo(long to) {
    return Paths.nextHopsTo(this, to);
  }

  /** For every destination switch, {@link #nextHopsTo} it. */
  public Map<Long, Map<Long, Hop>> allPairsNextHops() {
    Map<Long, Map<Long, Hop>> out = new TreeMap<>(SwitchPort.DPID_ORDER);
    for (long dst : switches()) {
      out.put(dst, nextHopsTo(dst));
    }
    return out;
  }

  /** The shortest path (fewest hops, stable tie-break); empty if {@code to} is unreachable. */
  public Optional<Path> shortestPath(long from, long to) {
    return Paths.shortestPath(this, from, to);
  }

  /**
   * The central switch: the one reaching the most switches (the largest component), then with the
   * least maximum distance, then the least sum of distances, then the lowest dpid.
   */
  public OptionalLong center() {
    return Paths.center(this);
  }

  /** The shortest-path spanning tree of the central switch's component, rooted there. */
  public Optional<SpanningTree> spanningTree() {
    OptionalLong c = center();
    return c.isPresent()
        ? Optional.of(SpanningTree.rootedAt(this, c.getAsLong()))
        : Optional.empty();
  }

  /** True if every switch reaches every other (an empty topology is connected). */
  public boolean isConnected() {
    return ports.isEmpty() || distances(ports.firstKey()).size() == ports.size();
  }

  // ---- updates ----

  /**
   * Adds a switch with these physical ports, or adds the ports to a known switch; a reserved port
   * number (LOCAL, ...) is an IllegalArgumentException.
   */
  public Topology addSwitch(long dpid, Collection<Long> newPorts) {
    SortedSet<Long> old = ports(dpid);
    if (hasSwitch(dpid) && old.containsAll(newPorts)) {
      return this;
    }
    SortedSet<Long> merged = new TreeSet<>(old);
    for (long p : newPorts) {
      merged.add(new SwitchPort(dpid, p).port()); // validates the number
    }
    TreeMap<Long, SortedSet<Long>> ps = copyPorts();
    ps.put(dpid, Collections.unmodifiableSortedSet(merged));
    return new Topology(ps, new TreeSet<>(links), new TreeMap<>(hosts));
  }

  public Topology addSwitch(long dpid, long... newPorts) {
    List<Long> list = new ArrayList<>();
    for (long p : newPorts) {
      list.add(p);
    }
    return addSwitch(dpid, list);
  }

  /** Removes a switch with its links and hosts. */
  public Topology removeSwitch(long dpid) {
    if (!hasSwitch(dpid)) {
      return this;
    }
    TreeMap<Long, SortedSet<Long>> ps = copyPorts();
    ps.remove(dpid);
    TreeSet<Link> ls = new TreeSet<>(links);
    ls.removeIf(l -> l.a().dpid() == dpid || l.b().dpid() == dpid);
    TreeMap<Ipv6Address, Host> hs = new TreeMap<>(hosts);
    hs.values().removeIf(h -> h.attachment().dpid() == dpid);
    return new Topology(ps, ls, hs);
  }

  /**
   * Adds a link, adding its switches and ports if unknown. A port has one peer, so links at either
   * end are replaced (re-cabling); hosts that were believed to be at either end are dropped (a
   * linked port is no edge port).
   */
  public Topology addLink(Link link) {
    if (links.contains(link)) {
      return this;
    }
    Topology t =
        addSwitch(link.a().dpid(), link.a().port()).addSwitch(link.b().dpid(), link.b().port());
    TreeSet<Link> ls = new TreeSet<>(t.links);
    ls.removeIf(l -> l.has(link.a()) || l.has(link.b()));
    ls.add(link);
    TreeMap<Ipv6Address, Host> hs = new TreeMap<>(t.hosts);
    hs.values().removeIf(h -> link.has(h.attachment()));
    return new Topology(t.copyPorts(), ls, hs);
  }

  public Topology removeLink(Link link) {
    if (!links.contains(link)) {
      return this;
    }
    TreeSet<Link> ls = new TreeSet<>(links);
    ls.remove(link);
    return new Topology(copyPorts(), ls, new TreeMap<>(hosts));
  }

  /** A port went down: its link is gone; the port itself and hosts at it stay known. */
  public Topology portDown(SwitchPort port) {
    Link l = linkAt.get(port);
    return l == null ? this : removeLink(l);
  }

  /**
   * Adds a host, or moves a known address to this MAC and attachment. The attachment must be an
   * edge port of a known switch (hosts are learned only there): else IllegalArgumentException.
   */
  public Topology addHost(Host host) {
    if (host.equals(hosts.get(host.address()))) {
      return this;
    }
    if (!hasSwitch(host.attachment().dpid()) || linkAt.containsKey(host.attachment())) {
      throw new IllegalArgumentException("not an edge port of a known switch: " + host);
    }
    Topology t = addSwitch(host.attachment().dpid(), host.attachment().port());
    TreeMap<Ipv6Address, Host> hs = new TreeMap<>(t.hosts);
    hs.put(host.address(), host);
    return new Topology(t.copyPorts(), new TreeSet<>(t.links), hs);
  }

  /** Moves a known host to another edge port; IllegalArgumentException if it is unknown. */
  public Topology moveHost(Ipv6Address address, SwitchPort to) {
    Host h = hosts.get(address);
    if (h == null) {
      throw new IllegalArgumentException("unknown host " + address);
    }
    return addHost(h.at(to));
  }

  public Topology removeHost(Ipv6Address address) {
    if (!hosts.containsKey(address)) {
      return this;
    }
    TreeMap<Ipv6Address, Host> hs = new TreeMap<>(hosts);
    hs.remove(address);
    return new Topology(copyPorts(), new TreeSet<>(links), hs);
  }

  /**
   * Applies one change as discovery reported it. A host change that no longer fits (its port has
   * since become a link port, or its switch is gone) is stale and ignored, not an error.
   */
  public Topology apply(TopologyChange change) {
    return switch (change) {
      case TopologyChange.LinkAdded a -> addLink(a.link());
      case TopologyChange.LinkRemoved r -> removeLink(r.link());
      case TopologyChange.HostAdded a -> addHostIfEdge(a.host());
      case TopologyChange.HostMoved m -> addHostIfEdge(m.to());
      case TopologyChange.HostRemoved r -> removeHost(r.host().address());
    };
  }

  private Topology addHostIfEdge(Host h) {
    boolean fits = hasSwitch(h.attachment().dpid()) && !linkAt.containsKey(h.attachment());
    return fits ? addHost(h) : this;
  }

  /** Applies changes in order. */
  public Topology applyAll(Collection<? extends TopologyChange> changes) {
    Topology t = this;
    for (TopologyChange c : changes) {
      t = t.apply(c);
    }
    return t;
  }

  private TreeMap<Long, SortedSet<Long>> copyPorts() {
    return new TreeMap<>(ports);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Topology t
        && ports.equals(t.ports)
        && links.equals(t.links)
        && hosts.equals(t.hosts);
  }

  @Override
  public int hashCode() {
    return ports.hashCode() * 31 * 31 + links.hashCode() * 31 + hosts.hashCode();
  }

  @Override
  public String toString() {
    return "Topology{switches=" + ports + ", links=" + links + ", hosts=" + hosts.values() + "}";
  }
}
