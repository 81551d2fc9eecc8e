package org.netpubsub.controller.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.netpubsub.controller.southbound.DesiredStateStore;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.pleroma.ContentFlows;

/**
 * Differential: the flow service's per-change publication ({@link OwnedStates}, snapshots built
 * when read) against its naive twin ({@link EagerOwnedStates}, every touched switch rebuilt and
 * compared at once), over random sequences of two owners' batches, replacements and topology
 * changes (with batches and reads inside them): every switch's published state, read after every
 * step and inside topology changes, and the switches a topology change reports changed, agree.
 */
class OwnedStatesProperties {
  private static final List<Owner> OWNERS = List.of(Owner.NORTHBOUND_APPS, Owner.PUBSUB_CONTENT);
  private static final List<Long> SWITCHES = List.of(1L, 2L, 3L);

  @Property(tries = 100)
  void publishedStatesAgreeWithTheNaiveTwin(@ForAll long seed) {
    Random r = new Random(seed);
    DesiredStateStore fast = new DesiredStateStore();
    DesiredStateStore naive = new DesiredStateStore();
    OwnedStates states = new OwnedStates(fast, false);
    EagerOwnedStates twin = new EagerOwnedStates(naive);
    for (Owner o : r.nextBoolean() ? OWNERS : OWNERS.reversed()) {
      states.register(o);
      twin.register(o);
    }
    for (int step = 0; step < 40; step++) {
      switch (r.nextInt(4)) {
        case 0, 1 -> {
          Owner o = owner(r);
          Map<Long, List<SwitchMod>> mods = batch(o, r);
          states.apply(o, mods);
          twin.apply(o, mods);
        }
        case 2 -> {
          Owner o = owner(r);
          long dpid = dpid(r);
          List<FlowEntry> flows = entries(o, r);
          assertThat(states.replace(o, dpid, flows, List.of()))
              .isEqualTo(twin.replace(o, dpid, flows, List.of()));
        }
        default -> {
          // the same random choices for both: one generator per side, same seed
          long inner = r.nextLong();
          List<Long> all = SWITCHES.subList(0, 1 + r.nextInt(SWITCHES.size()));
          var changed = states.batch(() -> topologyChange(new Random(inner), states, fast), all);
          var expected = twin.batch(() -> topologyChange(new Random(inner), twin, naive), all);
          assertThat(changed).isEqualTo(expected);
        }
      }
      assertSame(fast, naive);
    }
  }

  /** Replacements, a batch now and then, and a read of what is published meanwhile. */
  private static void topologyChange(Random r, Object side, DesiredStateStore published) {
    int n = r.nextInt(5);
    for (int i = 0; i < n; i++) {
      Owner o = owner(r);
      if (r.nextInt(5) == 0) {
        Map<Long, List<SwitchMod>> mods = batch(o, r);
        switch (side) {
          case OwnedStates s -> s.apply(o, mods);
          case EagerOwnedStates s -> s.apply(o, mods);
          default -> throw new AssertionError(side);
        }
      } else {
        long dpid = dpid(r);
        List<FlowEntry> flows = entries(o, r);
        switch (side) {
          case OwnedStates s -> s.replace(o, dpid, flows, List.of());
          case EagerOwnedStates s -> s.replace(o, dpid, flows, List.of());
          default -> throw new AssertionError(side);
        }
      }
      // what a reader sees in the middle of the change: recorded, compared after
      for (long dpid : SWITCHES) {
        READS.get().add(published.get(dpid).map(Object::toString).orElse("none"));
      }
    }
  }

  private static final ThreadLocal<List<String>> READS = ThreadLocal.withInitial(ArrayList::new);

  private static void assertSame(DesiredStateStore fast, DesiredStateStore naive) {
    for (long dpid = 0; dpid <= SWITCHES.size() + 1; dpid++) {
      assertThat(fast.contains(dpid))
          .as("switch %d published", dpid)
          .isEqualTo(naive.contains(dpid));
      assertThat(fast.get(dpid)).as("switch %d", dpid).isEqualTo(naive.get(dpid));
    }
    List<String> reads = READS.get();
    assertThat(reads.subList(0, reads.size() / 2))
        .as("reads inside a topology change")
        .isEqualTo(reads.subList(reads.size() / 2, reads.size()));
    reads.clear();
  }

  private static Owner owner(Random r) {
    return OWNERS.get(r.nextInt(OWNERS.size()));
  }

  private static long dpid(Random r) {
    return SWITCHES.get(r.nextInt(SWITCHES.size()));
  }

  private static Map<Long, List<SwitchMod>> batch(Owner o, Random r) {
    Map<Long, List<SwitchMod>> mods = new TreeMap<>();
    int switches = 1 + r.nextInt(2);
    for (int s = 0; s < switches; s++) {
      List<SwitchMod> l = new ArrayList<>();
      for (int i = r.nextInt(4); i > 0; i--) {
        FlowEntry e = entry(o, r);
        l.add(SwitchMod.of(r.nextInt(3) == 0 ? FlowMod.deleteStrict(e) : FlowMod.add(e)));
      }
      mods.put(dpid(r), l);
    }
    return mods;
  }

  private static List<FlowEntry> entries(Owner o, Random r) {
    Map<Integer, FlowEntry> byKey = new TreeMap<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      int k = r.nextInt(6);
      byKey.put(k, entry(o, k, r));
    }
    return List.copyOf(byKey.values());
  }

  private static FlowEntry entry(Owner o, Random r) {
    return entry(o, r.nextInt(6), r);
  }

  /** One of six matches per owner, to one of three ports. */
  private static FlowEntry entry(Owner o, int k, Random r) {
    Action out = new Action.Output(1 + r.nextInt(3));
    if (o == Owner.PUBSUB_CONTENT) {
      return FlowEntry.builder()
          .priority(ContentFlows.PRIORITY_BASE + 17)
          .cookie(ContentFlows.COOKIE)
          .match(
              Match.builder()
                  .udp6()
                  .udpDst(ContentFlows.EVENT_PORT)
                  .ipv6Dst("ff0e:8000:" + k + "::/48")
                  .build())
          .apply(out)
          .build();
    }
    return FlowEntry.builder()
        .priority(100)
        .match(Match.builder().ipv6().ipv6Dst("fd00:" + k + "::/64").build())
        .apply(out)
        .build();
  }
}
