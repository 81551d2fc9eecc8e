package org.netpubsub.network.forwarding;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.network.sim.SimulatedNetwork;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * The base app end to end on simulated networks: on random connected graphs (with parallel links),
 * lines and trees, every host reaches every other exactly once over a shortest path; after a random
 * link goes down and the flows are recomputed, every pair still connected still does, the others
 * get nothing, and nothing loops.
 */
class UnicastRoutingProperties {

  @Provide
  Arbitrary<Topology> topologies() {
    Arbitrary<Topology> random =
        Combinators.combine(
                Arbitraries.longs(),
                Arbitraries.integers().between(1, 10),
                Arbitraries.integers().between(0, 10))
            .as((seed, n, extra) -> TestTopologies.random(seed, n, extra, true, 0.5));
    Arbitrary<Topology> linear = Arbitraries.integers().between(1, 8).map(TestTopologies::linear);
    Arbitrary<Topology> tree =
        Combinators.combine(
                Arbitraries.integers().between(1, 3), Arbitraries.integers().between(1, 3))
            .as(TestTopologies::tree);
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(6, random),
        net.jqwik.api.Tuple.of(2, linear),
        net.jqwik.api.Tuple.of(2, tree));
  }

  @Property(tries = 200)
  void everyPairReachesBeforeAndAfterALinkGoesDown(
      @ForAll("topologies") Topology t, @ForAll long pick) {
    assertThat(t.isConnected()).isTrue();
    SimulatedNetwork net = SimulatedNetwork.of(t);
    Reachability.install(net, t);
    int hosts = t.hosts().size();
    assertThat(Reachability.checkAllPairs(net, t)).isEqualTo(hosts * (hosts - 1));
    if (t.links().isEmpty()) {
      return;
    }
    List<Link> links = new ArrayList<>(t.links());
    Link down = links.get((int) Math.floorMod(pick, (long) links.size()));
    net.setLinkUp(down, false);
    Topology after = t.removeLink(down);
    Reachability.install(net, after);
    Reachability.checkAllPairs(net, after);
  }

  @Property(tries = 100)
  void aLinkThatKeepsTheGraphConnectedLosesNoPair(
      @ForAll("topologies") Topology t, @ForAll long pick) {
    List<Link> spare = t.links().stream().filter(l -> t.removeLink(l).isConnected()).toList();
    if (spare.isEmpty()) {
      return;
    }
    Link down = spare.get((int) Math.floorMod(pick, (long) spare.size()));
    SimulatedNetwork net = SimulatedNetwork.of(t);
    net.setLinkUp(down, false);
    Topology after = t.removeLink(down);
    Reachability.install(net, after);
    int hosts = t.hosts().size();
    assertThat(Reachability.checkAllPairs(net, after)).isEqualTo(hosts * (hosts - 1));
  }
}
