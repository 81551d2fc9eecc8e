package org.netpubsub.network.multicast;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.Topology;

/**
 * A controller topology as a {@link Graph}: switches first (in datapath id order), then hosts (in
 * address order), each host linked to its switch only. Hosts can therefore only be leaves or roots
 * of a tree, and replication segments only ever sit on switches.
 */
public final class TopologyGraph {
  private final Graph graph;
  private final List<Long> switches;
  private final List<Host> hosts;
  private final Map<Long, Integer> switchNodes = new HashMap<>();
  private final Map<Ipv6Address, Integer> hostNodes = new HashMap<>();
  private OptionalInt rendezvous;

  private TopologyGraph(Topology t) {
    this.switches = new ArrayList<>(t.switches());
    this.hosts = new ArrayList<>(t.hosts().values());
    for (int i = 0; i < switches.size(); i++) {
      switchNodes.put(switches.get(i), i);
    }
    Graph.Builder b = Graph.builder(switches.size() + hosts.size());
    for (Link l : t.links()) {
      b.link(switchNodes.get(l.a().dpid()), switchNodes.get(l.b().dpid()));
    }
    for (int i = 0; i < hosts.size(); i++) {
      int node = switches.size() + i;
      hostNodes.put(hosts.get(i).address(), node);
      b.link(node, switchNodes.get(hosts.get(i).attachment().dpid()));
    }
    this.graph = b.build();
  }

  public static TopologyGraph of(Topology t) {
    return new TopologyGraph(t);
  }

  public Graph graph() {
    return graph;
  }

  /**
   * The rendezvous point for trees of strategy RP: the switch with the least average distance to
   * the switches that have hosts (the border), over switch links only; empty without hosts or when
   * no switch reaches them all.
   */
  public OptionalInt rendezvousPoint() {
    if (rendezvous == null) {
      Set<Integer> border = new TreeSet<>();
      hosts.forEach(h -> border.add(switchNodes.get(h.attachment().dpid())));
      List<Integer> switchNodeList = new ArrayList<>();
      for (int i = 0; i < switches.size(); i++) {
        switchNodeList.add(i); // switches come first, so their numbers agree in both graphs
      }
      try {
        rendezvous =
            border.isEmpty()
                ? OptionalInt.empty()
                : OptionalInt.of(
                    ShortestPathTrees.rendezvousPoint(graph.induced(switchNodeList), border));
      } catch (IllegalArgumentException disconnected) {
        rendezvous = OptionalInt.empty();
      }
    }
    return rendezvous;
  }

  /** The node of a known host. */
  public Optional<Integer> hostNode(Ipv6Address address) {
    return Optional.ofNullable(hostNodes.get(address));
  }

  /** True for a switch's node (they come first). */
  public boolean isSwitch(int node) {
    return node >= 0 && node < switches.size();
  }

  /** The switch at a switch node. */
  public long dpid(int node) {
    return switches.get(node);
  }

  /** The host at a host node. */
  public Host host(int node) {
    return hosts.get(hostNumber(node));
  }

  /** A host node's number among the hosts (0, 1, ... in address order). */
  public int hostNumber(int node) {
    if (node < switches.size() || node >= graph.size()) {
      throw new IllegalArgumentException("not a host node: " + node);
    }
    return node - switches.size();
  }

  /** Every host node. */
  public List<Integer> hostNodes() {
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < hosts.size(); i++) {
      out.add(switches.size() + i);
    }
    return out;
  }
}
