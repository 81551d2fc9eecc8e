package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * A withdrawal removes the pairs its addition counted unless an advertisement changed in between;
 * its naive twin pairs again: a configurator restored from the requests standing just before the
 * withdrawal. Both must make the same changes, report the same paths, and end with the same tables.
 */
class ConfiguratorWithdrawalProperties {
  static final Topology NET = TestTopologies.fatTree(4);

  @Property(tries = 60)
  void aWithdrawalChangesWhatPairingAgainWould(@ForAll long seed) {
    Random random = new Random(seed);
    List<Ipv6Address> hosts = new ArrayList<>(NET.hosts().keySet());
    Configurator c = Configurator.on(NET);
    for (int step = 0; step < 60; step++) {
      int roll = random.nextInt(10);
      Ipv6Address host = hosts.get(random.nextInt(hosts.size()));
      if (roll < 4) {
        c.subscribe(
            new Subscription(
                "s" + step, host, 7000 + random.nextInt(2), RandomCells.of(random, 5)));
      } else if (roll < 6) {
        c.advertise(new Advertisement("a" + step, host, RandomCells.of(random, 5)));
      } else if (roll < 7 && !c.advertisements().isEmpty()) {
        c.unadvertise(any(random, c.advertisements().keySet()));
      } else if (!c.subscriptions().isEmpty()) {
        String id = any(random, c.subscriptions().keySet());
        Configurator twin =
            Configurator.restored(NET, c.advertisements().values(), c.subscriptions().values());
        ConfigurationDelta once = c.unsubscribe(id);
        ConfigurationDelta again = twin.unsubscribe(id);
        assertThat(once.changes()).as("withdrawing %s", id).isEqualTo(again.changes());
        assertThat(once.paths()).isEqualTo(again.paths());
        assertThat(once.unreachablePaths()).isEqualTo(again.unreachablePaths());
        for (long dpid : NET.switches()) {
          assertThat(c.table(dpid)).isEqualTo(twin.table(dpid));
        }
      }
    }
  }

  private static String any(Random random, java.util.Set<String> ids) {
    return new ArrayList<>(ids).get(random.nextInt(ids.size()));
  }
}
