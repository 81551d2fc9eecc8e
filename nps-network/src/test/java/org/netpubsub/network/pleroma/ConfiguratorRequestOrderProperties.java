package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * Issue 27 part 7 for PLEROMA: a controller that restarts, or a cluster process that takes a
 * partition over, restores the standing advertisements and subscriptions in whatever order it reads
 * them, without the requests withdrawn before. Its content flows must be the same on every switch
 * as those of the configurator that saw the whole history, or the restart rewrites them.
 */
class ConfiguratorRequestOrderProperties {
  static final Topology NET = TestTopologies.fatTree(4);

  @Property(tries = 40)
  void standingRequestsGiveTheSameFlowsWhateverTheOrderTheyAreRestoredIn(@ForAll long seed) {
    Random random = new Random(seed);
    List<Ipv6Address> hosts = new ArrayList<>(NET.hosts().keySet());
    Configurator c = Configurator.on(NET);
    for (int step = 0; step < 40; step++) {
      int roll = random.nextInt(10);
      Ipv6Address host = hosts.get(random.nextInt(hosts.size()));
      if (roll < 4) {
        c.subscribe(
            new Subscription(
                "s" + step, host, 7000 + random.nextInt(2), RandomCells.of(random, 5)));
      } else if (roll < 7) {
        c.advertise(new Advertisement("a" + step, host, RandomCells.of(random, 5)));
      } else if (roll < 8 && !c.advertisements().isEmpty()) {
        c.unadvertise(any(random, c.advertisements().keySet()));
      } else if (!c.subscriptions().isEmpty()) {
        c.unsubscribe(any(random, c.subscriptions().keySet()));
      }
    }
    List<Advertisement> ads = new ArrayList<>(c.advertisements().values());
    List<Subscription> subs = new ArrayList<>(c.subscriptions().values());
    Collections.shuffle(ads, random);
    Collections.shuffle(subs, random);
    Configurator restarted = Configurator.restored(NET, ads, subs);
    for (long dpid : NET.switches()) {
      assertThat(new HashSet<>(restarted.flows(dpid)))
          .as("flows of %x", dpid)
          .isEqualTo(new HashSet<>(c.flows(dpid)));
    }
  }

  private static String any(Random random, java.util.Set<String> ids) {
    return new ArrayList<>(ids).get(random.nextInt(ids.size()));
  }
}
