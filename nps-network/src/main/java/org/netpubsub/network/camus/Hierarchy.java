package org.netpubsub.network.camus;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * A topology read as Camus's hierarchy (§4): layer 0 (edge, ToR) holds the switches with hosts, and
 * every other switch sits one layer above its nearest lower neighbour — so in a fat tree the
 * aggregation switches are layer 1 and the cores layer 2. Links to the layer above are a switch's
 * up ports (one logical port), links to the layer below and host ports its down ports.
 *
 * <p>{@link #of} accepts a topology only when forwarding on it is well defined for every choice of
 * physical up port: (1) every link joins adjacent layers; (2) a switch's down ports reach disjoint
 * sets of hosts (one downward path per host, so nobody receives twice); (3) all up neighbours of a
 * switch reach the same hosts (whichever up port a message takes, the same hosts are below it); (4)
 * every switch without up ports reaches every host. Fat trees, trees and multi-rooted Clos fabrics
 * pass; rings, meshes and fat trees with a failed link do not, and the reason says which condition
 * failed where.
 *
 * <p>Hosts are indexed in address order; host sets are {@link BitSet}s over those indices.
 */
public final class Hierarchy {
  private final Topology topology;
  private final List<Ipv6Address> hosts;
  private final Map<Ipv6Address, Integer> hostIndex = new HashMap<>();
  private final Map<Long, Integer> layerOf = new TreeMap<>(SwitchPort.DPID_ORDER);
  private final List<List<Long>> layers = new ArrayList<>();
  private final Map<Long, SortedSet<Long>> up = new TreeMap<>(SwitchPort.DPID_ORDER);
  private final Map<Long, SortedSet<Long>> down = new TreeMap<>(SwitchPort.DPID_ORDER);
  private final Map<SwitchPort, BitSet> hostsAt = new HashMap<>();
  private final Map<SwitchPort, BitSet> belowPort = new HashMap<>();
  private final Map<Long, BitSet> belowSwitch = new HashMap<>();

  private Hierarchy(Topology topology) {
    this.topology = topology;
    this.hosts = List.copyOf(topology.hosts().keySet());
    for (int i = 0; i < hosts.size(); i++) {
      hostIndex.put(hosts.get(i), i);
    }
  }

  /**
   * The hierarchy of {@code topology}; IllegalArgumentException naming the first broken condition
   * if it has none.
   */
  public static Hierarchy of(Topology topology) {
    Hierarchy h = new Hierarchy(topology);
    h.build();
    return h;
  }

  private void build() {
    if (hosts.isEmpty()) {
      throw bad("it has no hosts, so no switch is at the edge");
    }
    for (Host host : topology.hosts().values()) {
      hostsAt
          .computeIfAbsent(host.attachment(), p -> new BitSet())
          .set(hostIndex.get(host.address()));
    }
    // layers: breadth first from the switches with hosts
    ArrayDeque<Long> todo = new ArrayDeque<>();
    for (SwitchPort p : new TreeSet<>(hostsAt.keySet())) {
      if (layerOf.putIfAbsent(p.dpid(), 0) == null) {
        todo.add(p.dpid());
      }
    }
    for (Link l : topology.links()) {
      if (l.a().dpid() == l.b().dpid()) {
        throw bad("link " + l + " loops back to switch " + name(l.a().dpid()));
      }
    }
    while (!todo.isEmpty()) {
      long s = todo.poll();
      for (var hop : topology.hopsFrom(s)) {
        if (layerOf.putIfAbsent(hop.to().dpid(), layerOf.get(s) + 1) == null) {
          todo.add(hop.to().dpid());
        }
      }
    }
    for (long s : topology.switches()) {
      Integer l = layerOf.get(s);
      if (l == null) {
        throw bad("switch " + name(s) + " is not connected to any host");
      }
      while (layers.size() <= l) {
        layers.add(new ArrayList<>());
      }
      layers.get(l).add(s);
      up.put(s, new TreeSet<>());
      down.put(s, new TreeSet<>());
    }
    for (SwitchPort p : hostsAt.keySet()) {
      down.get(p.dpid()).add(p.port());
    }
    for (Link l : topology.links()) {
      int la = layerOf.get(l.a().dpid());
      int lb = layerOf.get(l.b().dpid());
      if (la == lb) {
        throw bad(
            "link " + l + " joins two switches of one layer (" + layerName(la) + "), not adjacent");
      }
      SwitchPort lower = la < lb ? l.a() : l.b();
      SwitchPort upper = l.peer(lower);
      up.get(lower.dpid()).add(lower.port());
      down.get(upper.dpid()).add(upper.port());
    }
    // hosts below, bottom up; down ports must reach disjoint host sets
    for (List<Long> layer : layers) {
      for (long s : layer) {
        BitSet all = new BitSet();
        for (long p : down.get(s)) {
          SwitchPort sp = new SwitchPort(s, p);
          BitSet b =
              hostsAt.containsKey(sp)
                  ? (BitSet) hostsAt.get(sp).clone()
                  : (BitSet) belowSwitch.get(peer(sp).dpid()).clone();
          if (b.intersects(all)) {
            BitSet twice = (BitSet) b.clone();
            twice.and(all);
            throw bad(
                "switch "
                    + name(s)
                    + " reaches host "
                    + hosts.get(twice.nextSetBit(0))
                    + " through two of its down ports (one is "
                    + p
                    + "): it would receive a message twice");
          }
          all.or(b);
          belowPort.put(sp, b);
        }
        belowSwitch.put(s, all);
      }
    }
    for (long s : topology.switches()) {
      BitSet first = null;
      long firstPeer = 0;
      for (long p : up.get(s)) {
        long t = peer(new SwitchPort(s, p)).dpid();
        BitSet b = belowSwitch.get(t);
        if (first == null) {
          first = b;
          firstPeer = t;
        } else if (!first.equals(b)) {
          throw bad(
              "the up ports of switch "
                  + name(s)
                  + " lead to switches that reach different hosts ("
                  + name(firstPeer)
                  + " reaches "
                  + first.cardinality()
                  + ", "
                  + name(t)
                  + " reaches "
                  + b.cardinality()
                  + "): the physical up port taken would change who receives a message");
        }
      }
      if (first == null && belowSwitch.get(s).cardinality() != hosts.size()) {
        throw bad(
            "switch "
                + name(s)
                + " has no up port but reaches only "
                + belowSwitch.get(s).cardinality()
                + " of the "
                + hosts.size()
                + " hosts");
      }
    }
  }

  private static String name(long dpid) {
    return Long.toUnsignedString(dpid);
  }

  private IllegalArgumentException bad(String why) {
    return new IllegalArgumentException("not a hierarchical topology: " + why);
  }

  public Topology topology() {
    return topology;
  }

  /** The hosts, in address order: host index i is {@code hosts().get(i)}. */
  public List<Ipv6Address> hosts() {
    return hosts;
  }

  /** The index of a host; IllegalArgumentException if the topology has no such host. */
  public int hostIndex(Ipv6Address host) {
    Integer i = hostIndex.get(host);
    if (i == null) {
      throw new IllegalArgumentException("no host " + host + " in the topology");
    }
    return i;
  }

  /** The number of layers (3 in a fat tree). */
  public int layerCount() {
    return layers.size();
  }

  /** The switches of layer {@code i} (0 = edge), ascending. */
  public List<Long> layer(int i) {
    return Collections.unmodifiableList(layers.get(i));
  }

  /** Every switch bottom up: layer 0 first, in ascending dpid within a layer. */
  public List<Long> bottomUp() {
    List<Long> out = new ArrayList<>();
    layers.forEach(out::addAll);
    return out;
  }

  public int layerOf(long dpid) {
    Integer l = layerOf.get(dpid);
    if (l == null) {
      throw new IllegalArgumentException("no switch " + name(dpid));
    }
    return l;
  }

  /** edge, aggregation, core in a three-layer fabric; edge, layer i, …, core otherwise. */
  public String layerName(int i) {
    if (i == 0) {
      return "edge";
    }
    if (i == layers.size() - 1) {
      return "core";
    }
    return layers.size() == 3 ? "aggregation" : "layer " + i;
  }

  /** The up ports of a switch (to the layer above), ascending: one logical port. */
  public SortedSet<Long> upPorts(long dpid) {
    return Collections.unmodifiableSortedSet(up.get(checked(dpid)));
  }

  /** The down ports of a switch: to the layer below, or to hosts. */
  public SortedSet<Long> downPorts(long dpid) {
    return Collections.unmodifiableSortedSet(down.get(checked(dpid)));
  }

  public boolean isUpPort(SwitchPort p) {
    return up.containsKey(p.dpid()) && up.get(p.dpid()).contains(p.port());
  }

  /** The switch port at the other end of a switch link. */
  public SwitchPort peer(SwitchPort p) {
    return topology
        .linkAt(p)
        .orElseThrow(() -> new IllegalArgumentException("no link at " + p))
        .peer(p);
  }

  /** The hosts attached at a port (empty unless it is a host port). */
  public BitSet hostsAt(SwitchPort p) {
    BitSet b = hostsAt.get(p);
    return b == null ? new BitSet() : (BitSet) b.clone();
  }

  /** The hosts a switch reaches going down only. */
  public BitSet below(long dpid) {
    return (BitSet) belowSwitch.get(checked(dpid)).clone();
  }

  /**
   * The hosts reached through a port: below it for a down port, everyone not below the switch for
   * an up port (whichever physical up port — condition 3), nobody for other ports.
   */
  public BitSet via(SwitchPort p) {
    BitSet b = belowPort.get(p);
    if (b != null) {
      return (BitSet) b.clone();
    }
    if (isUpPort(p)) {
      BitSet rest = new BitSet();
      rest.set(0, hosts.size());
      rest.andNot(belowSwitch.get(p.dpid()));
      return rest;
    }
    return new BitSet();
  }

  private long checked(long dpid) {
    if (!up.containsKey(dpid)) {
      throw new IllegalArgumentException("no switch " + name(dpid));
    }
    return dpid;
  }
}
