package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.network.topology.TestTopologies;

/**
 * Covers of real range filters (dozens of cells of mixed lengths), many subscriptions per host and
 * "everything" subscriptions, then one advertisement of everything: flows exist and every event is
 * delivered exactly.
 */
class ConfiguratorRealCoversTest {
  static final Schema SCHEMA =
      Schema.builder("w").intAttribute("a0", 0, 1023).intAttribute("a1", 0, 1023).build();
  static final SpatialIndex INDEX = new SpatialIndex(SCHEMA, 20);

  @Test
  void manyRealSubscriptionsThenAnAdvertisementOfEverything() {
    PleromaNetwork n = new PleromaNetwork(TestTopologies.fatTree(4), 5);
    List<String> hosts = new ArrayList<>(n.net.hostNames());
    Random r = new Random(5);
    for (int i = 2; i <= 8; i++) {
      n.subscribe("h" + i, 46000, DzSet.ALL);
    }
    for (int i = 0; i < 120; i++) {
      int lo0 = r.nextInt(1024);
      int lo1 = r.nextInt(1024);
      String f =
          "a0 in ["
              + lo0
              + ", "
              + Math.min(1023, lo0 + r.nextInt(256))
              + "] && a1 in ["
              + lo1
              + ", "
              + Math.min(1023, lo1 + r.nextInt(256))
              + "]";
      DzSet cells = INDEX.cover(Normalizer.toDnf(FilterParser.parse(SCHEMA, f)), 64);
      n.subscribe(hosts.get(i % 8), 7073, cells);
    }
    assertThat(n.configurator.flowCount()).isZero();
    String ad = n.advertise("h1", DzSet.ALL);
    assertThat(n.configurator.flowCount()).isPositive();
    n.checkTablesEqualConfigurator();
    Advertisement a = n.configurator.advertisements().get(ad);
    for (int i = 0; i < 100; i++) {
      n.publishAndCheck(a, n.randomDz(20));
    }
  }
}
