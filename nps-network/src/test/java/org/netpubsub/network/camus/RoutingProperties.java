package org.netpubsub.network.camus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.network.camus.CamusFixtures.FAT_TREE;
import static org.netpubsub.network.camus.CamusFixtures.SPEC;

import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.workload.Workload;

/**
 * The compiled fabric against direct evaluation: on the k=4 fat tree, with random ITCH rules per
 * host, random publishers and random physical up ports, every host receives exactly the events its
 * rules match, once — under MR and TR, exact or discretized above the edge (the edge's exact
 * filters remove what α lets through). And traffic: TR with α = 1 sends nothing nobody needs; with
 * α = 1 every transmission down the tree is needed.
 */
class RoutingProperties {
  @Provide
  Arbitrary<Long> alphas() {
    // price units (4 implied decimals): exact, odd, $1, $100
    return Arbitraries.of(1L, 7L, 10_000L, 1_000_000L);
  }

  @Property(tries = 40)
  void everyHostReceivesExactlyWhatItsRulesMatchOnce(
      @ForAll long seed,
      @ForAll RoutingPolicy policy,
      @ForAll("alphas") long alpha,
      @ForAll boolean rich) {
    Workload w = CamusFixtures.itch(seed, 150, 120, rich, 12);
    Map<Ipv6Address, List<PacketSubscription>> subs = CamusFixtures.byHost(w, "s");
    CamusRouting r = CamusRouting.compile(FAT_TREE, SPEC, policy, alpha, subs);
    Random rnd = new Random(seed);
    UpPortChoice anyUp =
        (dpid, ups, values) -> ups.stream().skip(rnd.nextInt(ups.size())).findFirst().get();
    Dissemination d = Dissemination.of(r, anyUp);
    Traffic t = new Traffic(FAT_TREE);
    int delivered = 0;
    for (Event e : w.events().toList()) {
      Ipv6Address publisher = FAT_TREE.hosts().get(rnd.nextInt(16));
      Dissemination.Result res = d.publish(publisher, SPEC.values(e));
      BitSet want = CamusFixtures.interested(FAT_TREE, subs, e);
      t.add(res, want);
      want.clear(FAT_TREE.hostIndex(publisher));
      assertThat(res.receivers()).as("%s from %s", e, publisher).isEqualTo(want);
      assertThat(res.maxCopies()).isLessThanOrEqualTo(1);
      delivered += want.cardinality();
    }
    assertThat(delivered).as("the workload delivers something").isPositive();
    for (Traffic.LayerTraffic l : t.layers()) {
      if (alpha == 1) {
        assertThat(l.sent() - l.sentUp()).as("%s down", l).isEqualTo(l.needed() - l.neededUp());
        if (policy == RoutingPolicy.TR) {
          assertThat(l.extra()).as("%s", l).isZero();
        }
      }
      assertThat(l.needed()).isLessThanOrEqualTo(l.sent());
    }
    if (policy == RoutingPolicy.MR) {
      // MR sends every message to a core
      assertThat(t.layers().get(1).sentUp()).isEqualTo(t.messages());
    }
  }
}
