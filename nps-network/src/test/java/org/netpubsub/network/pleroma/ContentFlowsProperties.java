package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedSet;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.ContentAddress;
import org.netpubsub.content.index.Dz;
import org.netpubsub.network.openflow.FlowMod;

/**
 * A content flow's address from the dz's bits against the address its bytes spell, and the
 * flow-mods of a switch's changes against netting them per dz in a map.
 */
class ContentFlowsProperties {
  @Property(tries = 300)
  void flowModsNetEachDzsChanges(
      @ForAll long seed, @ForAll @IntRange(min = 1, max = 40) int length) {
    Random random = new Random(seed);
    List<Dz> dzs = List.of(Dz.parse("0"), Dz.parse("01"), Dz.parse("011"), Dz.parse("1"));
    List<EventEgress> egresses = List.of(towards(1), towards(2), towards(3));
    Map<Dz, SortedSet<EventEgress>> now = new HashMap<>();
    List<TableChange> changes = new ArrayList<>();
    while (changes.size() < length) {
      Dz dz = dzs.get(random.nextInt(dzs.size()));
      SortedSet<EventEgress> next = new TreeSet<>();
      egresses.forEach(
          e -> {
            if (random.nextBoolean()) next.add(e);
          });
      SortedSet<EventEgress> before = now.getOrDefault(dz, new TreeSet<>());
      if (!next.equals(before)) {
        changes.add(new TableChange(dz, before, next));
        now.put(dz, next);
      }
    }
    assertThat(ContentFlows.flowMods(changes)).isEqualTo(nettedByMap(changes));
  }

  /** The plain way: per dz in first-seen order its first before and last after. */
  private static List<FlowMod> nettedByMap(List<TableChange> changes) {
    Map<Dz, List<SortedSet<EventEgress>>> net = new LinkedHashMap<>();
    for (TableChange c : changes) {
      net.computeIfAbsent(c.dz(), d -> new ArrayList<>(List.of(c.before(), c.after())))
          .set(1, c.after());
    }
    List<FlowMod> adds = new ArrayList<>();
    List<FlowMod> deletes = new ArrayList<>();
    net.forEach(
        (dz, pair) -> {
          if (pair.get(1).isEmpty() && !pair.get(0).isEmpty()) {
            deletes.add(FlowMod.deleteStrict(ContentFlows.entry(dz, pair.get(0))));
          } else if (!pair.get(0).equals(pair.get(1))) {
            adds.add(FlowMod.add(ContentFlows.entry(dz, pair.get(1))));
          }
        });
    adds.addAll(deletes);
    return adds;
  }

  private static EventEgress towards(long port) {
    return EventEgress.towardsSwitch(port);
  }

  @Property(tries = 300)
  void theAddressIsTheContentAddress(
      @ForAll long bits, @ForAll long more, @ForAll @IntRange(max = Dz.MAX_LENGTH) int length) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < length; i++) {
      long word = i < 64 ? bits : more;
      s.append((word >>> (63 - i % 64)) & 1);
    }
    Dz dz = Dz.parse(s.toString());
    byte[] b = ContentAddress.of(dz).bytes();
    long hi = 0;
    long lo = 0;
    for (int i = 0; i < 8; i++) {
      hi = hi << 8 | (b[i] & 0xff);
      lo = lo << 8 | (b[8 + i] & 0xff);
    }
    assertThat(ContentFlows.address(dz)).isEqualTo(new Ipv6Address(hi, lo));
  }
}
