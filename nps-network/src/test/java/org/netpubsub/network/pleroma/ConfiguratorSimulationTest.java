package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * Algorithm 1 end to end on a simulated fat tree: random advertise / subscribe / unadvertise /
 * unsubscribe interleaved with publishing; after every request each subscriber receives exactly the
 * events in its cells (ground truth from the requests alone), once, rewritten to it, and the
 * switches hold exactly the configurator's flows.
 */
class ConfiguratorSimulationTest {
  static final Topology FAT_TREE = TestTopologies.fatTree(4);

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3})
  void churnKeepsDeliveriesExact(long seed) {
    PleromaNetwork n = new PleromaNetwork(FAT_TREE, seed);
    List<String> hosts = new ArrayList<>(n.net.hostNames());
    int published = 0;
    int delivered = 0;
    for (int step = 0; step < 1500; step++) {
      int roll = n.randomInt(100);
      String host = hosts.get(n.randomInt(hosts.size()));
      Configurator c = n.configurator;
      if (roll < 25) {
        n.subscribe(host, 7073 + n.randomInt(3), n.randomCells());
      } else if (roll < 40 && !c.subscriptions().isEmpty()) {
        n.apply(c.unsubscribe(any(n, c.subscriptions().keySet())));
      } else if (roll < 55) {
        n.advertise(host, n.randomCells());
      } else if (roll < 65 && !c.advertisements().isEmpty()) {
        n.apply(c.unadvertise(any(n, c.advertisements().keySet())));
      } else if (!c.advertisements().isEmpty()) {
        Advertisement a = c.advertisements().get(any(n, c.advertisements().keySet()));
        delivered += n.publishAndCheck(a, n.eventIn(a.cells()));
        published++;
      }
      if (step % 100 == 0) {
        n.checkTablesEqualConfigurator();
      }
    }
    n.checkTablesEqualConfigurator();
    assertThat(published).isGreaterThan(300);
    assertThat(delivered).as("the workload must deliver something").isGreaterThan(100);
  }

  @Test
  void aFailedTreeLinkRebuildsTheTreeAndDeliveriesAreExactAgain() {
    PleromaNetwork n = new PleromaNetwork(FAT_TREE, 9);
    List<String> hosts = new ArrayList<>(n.net.hostNames());
    List<String> ads = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      n.subscribe(hosts.get(i % hosts.size()), 7073, n.randomCells());
      ads.add(n.advertise(hosts.get((i * 5 + 3) % hosts.size()), n.randomCells()));
    }
    Link link = n.configurator.tree().orElseThrow().links().first();
    n.net.setLinkUp(link, false);
    Topology without = FAT_TREE.removeLink(link);
    n.rebuild(without);
    assertThat(n.configurator.tree().orElseThrow().links()).doesNotContain(link);
    for (int i = 0; i < 200; i++) {
      Advertisement a = n.configurator.advertisements().get(ads.get(i % ads.size()));
      n.publishAndCheck(a, n.eventIn(a.cells()));
    }
    n.checkTablesEqualConfigurator();
  }

  @Test
  void flowsExistOnlyForTheOverlapOfAdvertisementAndSubscription() {
    PleromaNetwork n = new PleromaNetwork(FAT_TREE, 1);
    n.advertise("h1", DzSet.of(Dz.parse("00")));
    n.subscribe("h16", 7073, DzSet.of(Dz.parse("1")));
    assertThat(n.configurator.flowCount()).isZero();
    n.subscribe("h12", 7073, DzSet.of(Dz.parse("0")));
    // the overlap is 00: every flow of the path matches exactly ff0e::/18
    assertThat(n.configurator.flowCount()).isPositive();
    for (long dpid : FAT_TREE.switches()) {
      n.configurator.table(dpid).keySet().forEach(d -> assertThat(d).isEqualTo(Dz.parse("00")));
    }
  }

  @Test
  void unsubscribingEveryoneRemovesEveryContentFlow() {
    PleromaNetwork n = new PleromaNetwork(FAT_TREE, 4);
    List<String> subs = new ArrayList<>();
    n.advertise("h1", DzSet.ALL);
    n.advertise("h9", n.randomCells());
    for (String h : n.net.hostNames()) {
      subs.add(n.subscribe(h, 7073, n.randomCells()));
    }
    assertThat(n.configurator.flowCount()).isPositive();
    subs.forEach(id -> n.apply(n.configurator.unsubscribe(id)));
    assertThat(n.configurator.flowCount()).isZero();
    n.checkTablesEqualConfigurator();
  }

  @Test
  void requestsAreChecked() {
    Configurator c = Configurator.on(FAT_TREE);
    Ipv6Address h1 = TestTopologies.hostAddress(1);
    assertThatThrownBy(
            () -> c.subscribe(new Subscription("s", new Ipv6Address(9, 9), 7073, DzSet.ALL)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is not known");
    c.subscribe(new Subscription("s", h1, 7073, DzSet.ALL));
    assertThatThrownBy(() -> c.advertise(new Advertisement("s", h1, DzSet.ALL)))
        .hasMessageContaining("exists");
    assertThatThrownBy(() -> c.unsubscribe("nope")).hasMessageContaining("no subscription");
    assertThat(Configurator.on(Topology.EMPTY).tree()).isEmpty();
  }

  private static String any(PleromaNetwork n, java.util.Set<String> ids) {
    List<String> list = new ArrayList<>(ids);
    return list.get(n.randomInt(list.size()));
  }
}
