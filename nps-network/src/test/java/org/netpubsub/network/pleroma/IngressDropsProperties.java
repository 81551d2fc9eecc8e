package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.openflow.SimulatedSwitch;

/**
 * The ingress drops against their naive twin, "an address is dropped iff no allowed cell covers
 * it", on the prefix cut and executed by the simulated switch beside a content flow for everything:
 * an event from the guarded port is forwarded iff its address is allowed, from another port always.
 */
class IngressDropsProperties {
  private static final Ipv6Address SRC = Ipv6Address.parse("fd6e:7073:1::2");

  @Property(tries = 100)
  void anAddressIsDroppedIffNoAllowedCellCoversIt(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 3) int cells) {
    Random random = new Random(seed);
    DzSet allowed = cells == 0 ? DzSet.EMPTY : RandomCells.of(random, 12);
    List<Dz> outside = IngressDrops.outside(allowed);
    int lengths = allowed.members().stream().mapToInt(Dz::length).sum();
    assertThat(outside.size()).isLessThanOrEqualTo(Math.max(1, lengths));
    for (int i = 0; i < outside.size(); i++) {
      for (int j = i + 1; j < outside.size(); j++) {
        assertThat(outside.get(i).overlaps(outside.get(j))).isFalse();
      }
    }
    SimulatedSwitch sw = SimulatedSwitch.builder().ports(1, 2, 3).build();
    sw.apply(FlowMod.add(ContentFlows.entry(Dz.EMPTY, new TreeSet<>(List.of(towards(3))))));
    for (FlowEntry f : IngressDrops.entries(2, allowed)) {
      assertThat(SwitchLayout.ownerOf(f)).contains(Owner.INGRESS);
      assertThat(sw.apply(FlowMod.add(f))).isEmpty();
    }
    for (int k = 0; k < 50; k++) {
      // an event inside each cell first, not only random ones
      Dz event = k < allowed.size() ? allowed.get(k) : Dz.EMPTY;
      while (event.length() < Dz.MAX_LENGTH) {
        event = event.append(random.nextInt(2));
      }
      Dz e = event;
      boolean dropped = outside.stream().anyMatch(d -> d.covers(e));
      assertThat(dropped).as("%s", e).isEqualTo(!allowed.covers(event));
      PacketHeaders h =
          PacketHeaders.udp6(SRC, ContentFlows.address(event), 40_000, ContentFlows.EVENT_PORT);
      assertThat(sw.process(2, h).ports()).isEqualTo(dropped ? List.of() : List.of(3L));
      assertThat(sw.process(1, h).ports()).containsExactly(3L);
    }
  }

  private static EventEgress towards(long port) {
    return EventEgress.towardsSwitch(port);
  }
}
