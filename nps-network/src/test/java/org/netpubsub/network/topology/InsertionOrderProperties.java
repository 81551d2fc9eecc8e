package org.netpubsub.network.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.network.multicast.MulticastTree;
import org.netpubsub.network.multicast.ShortestPathTrees;
import org.netpubsub.network.multicast.TopologyGraph;

/**
 * Issue 27 part 7: a restarted controller learns switches, links and hosts in another order, and
 * must still choose the same equal-cost paths and trees, or it rewrites flows. Every choice is a
 * pure function of the topology (ties by dpid, then port): the same topology built in a shuffled
 * order gives the same next hops, center, spanning tree and multicast trees.
 */
class InsertionOrderProperties {
  @Provide
  Arbitrary<Topology> graphs() {
    return Combinators.combine(
            Arbitraries.longs(),
            Arbitraries.integers().between(1, 14),
            Arbitraries.integers().between(0, 20),
            Arbitraries.of(true, true, false))
        .as((seed, n, extra, connected) -> TestTopologies.random(seed, n, extra, connected, 0.4));
  }

  /** {@code t} built again, its switches, links and hosts added in an order shuffled by seed. */
  private static Topology shuffled(Topology t, long seed) {
    Random r = new Random(seed);
    List<Map.Entry<Long, java.util.SortedSet<Long>>> switches =
        new ArrayList<>(t.switchPorts().entrySet());
    List<Link> links = new ArrayList<>(t.links());
    List<Host> hosts = new ArrayList<>(t.hosts().values());
    Collections.shuffle(switches, r);
    Collections.shuffle(links, r);
    Collections.shuffle(hosts, r);
    Topology out = Topology.EMPTY;
    for (var s : switches) {
      List<Long> ports = new ArrayList<>(s.getValue());
      Collections.shuffle(ports, r);
      out = out.addSwitch(s.getKey(), ports);
    }
    for (Link l : links) {
      out = out.addLink(r.nextBoolean() ? l : new Link(l.b(), l.a()));
    }
    for (Host h : hosts) {
      out = out.addHost(h);
    }
    return out;
  }

  @Property(tries = 300)
  void pathsAndTreesDoNotDependOnTheOrderTheTopologyWasLearnt(
      @ForAll("graphs") Topology t, @ForAll long seed) {
    Topology u = shuffled(t, seed);
    assertThat(u.allPairsNextHops()).isEqualTo(t.allPairsNextHops());
    assertThat(u.center()).isEqualTo(t.center());
    assertThat(u.spanningTree().map(SpanningTree::links))
        .isEqualTo(t.spanningTree().map(SpanningTree::links));
    for (long a : t.switches()) {
      for (long b : t.switches()) {
        assertThat(u.shortestPath(a, b)).isEqualTo(t.shortestPath(a, b));
      }
    }
    TopologyGraph gt = TopologyGraph.of(t);
    TopologyGraph gu = TopologyGraph.of(u);
    assertThat(gu.rendezvousPoint()).isEqualTo(gt.rendezvousPoint());
    List<Integer> hostNodes = gt.hostNodes();
    if (hostNodes.size() >= 2) {
      int root = hostNodes.get(0);
      java.util.Set<Integer> members =
          new java.util.TreeSet<>(hostNodes.subList(1, hostNodes.size()));
      try {
        MulticastTree a = ShortestPathTrees.direct(gt.graph(), root, members);
        MulticastTree b = ShortestPathTrees.direct(gu.graph(), root, members);
        for (int n : a.nodes()) {
          assertThat(b.parent(n)).isEqualTo(a.parent(n));
        }
        assertThat(b.nodes()).isEqualTo(a.nodes());
      } catch (IllegalArgumentException unreachable) {
        // a member the root cannot reach: both refuse alike
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> ShortestPathTrees.direct(gu.graph(), root, members))
            .isInstanceOf(IllegalArgumentException.class);
      }
    }
  }
}
