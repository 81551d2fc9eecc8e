package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.netpubsub.content.address.Ipv6Address;

/**
 * The egress set against a tree set of the same egresses: membership (also of equal but distinct
 * objects, and of subscribers behind one port) and adding.
 */
class EgressSetProperties {
  @Property(tries = 300)
  void membershipAndAddingAsATreeSet(@ForAll long seed) {
    Random random = new Random(seed);
    List<EventEgress> base = randomEgresses(random, random.nextInt(8));
    List<EventEgress> more = randomEgresses(random, random.nextInt(4));
    EgressSet set = EgressSet.copyOf(base).with(more.toArray(EventEgress[]::new), more.size());
    TreeSet<EventEgress> naive = new TreeSet<>(base);
    naive.addAll(more);
    assertThat(set).containsExactlyElementsOf(naive);
    for (EventEgress probe : randomEgresses(random, 12)) {
      assertThat(set.contains(probe)).as("%s in %s", probe, set).isEqualTo(naive.contains(probe));
    }
  }

  /** Few ports and hosts, so kinds, ports and subscribers behind one port coincide often. */
  private static List<EventEgress> randomEgresses(Random random, int n) {
    List<EventEgress> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long port = 1 + random.nextInt(3);
      out.add(
          random.nextBoolean()
              ? EventEgress.towardsSwitch(port)
              : EventEgress.toSubscriber(
                  port,
                  new LastHop(
                      new Ipv6Address(0x2001_0db8L << 32, 1 + random.nextInt(2)),
                      0x02_00_00_00_00_01L,
                      7000 + random.nextInt(2))));
    }
    return out;
  }
}
