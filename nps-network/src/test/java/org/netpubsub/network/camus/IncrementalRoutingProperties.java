package org.netpubsub.network.camus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.network.camus.CamusFixtures.FAT_TREE;
import static org.netpubsub.network.camus.CamusFixtures.SPEC;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.target.software.SoftwarePipeline;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.workload.Workload;

/**
 * Per-switch incremental recompilation equals a full recompute of the network after any sequence of
 * subscription changes: on every switch the same local rules, tables of the same size that forward
 * every event alike; and an update touches exactly the switches whose filter sets hold the host,
 * leaving the others' compilations as they were.
 */
class IncrementalRoutingProperties {
  @Property(tries = 16)
  void incrementalEqualsFullRecompute(
      @ForAll long seed, @ForAll RoutingPolicy policy, @ForAll boolean approximate) {
    long alpha = approximate ? 10_000 : 1;
    Workload w = CamusFixtures.itch(seed, 160, 80, true, 10);
    List<PacketSubscription> pool =
        CamusFixtures.byHost(w, "p").values().stream().flatMap(List::stream).toList();
    Map<Ipv6Address, List<PacketSubscription>> start =
        CamusFixtures.byHost(CamusFixtures.itch(seed + 1, 60, 0, true, 10), "s");
    CamusRouting r = CamusRouting.compile(FAT_TREE, SPEC, policy, alpha, start);
    List<Event> events = w.events().toList();
    Random rnd = new Random(seed);
    int fresh = 0;
    for (int step = 0; step < 8; step++) {
      Ipv6Address host = FAT_TREE.hosts().get(rnd.nextInt(16));
      List<String> live =
          new ArrayList<>(r.subscriptions(host).stream().map(PacketSubscription::id).toList());
      java.util.Collections.shuffle(live, rnd);
      List<String> removed = live.subList(0, Math.min(live.size(), rnd.nextInt(3)));
      List<PacketSubscription> added = new ArrayList<>();
      for (int i = rnd.nextInt(4); i > 0; i--) {
        PacketSubscription p = pool.get(rnd.nextInt(pool.size()));
        added.add(new PacketSubscription("n" + fresh++, p.filter(), p.dnf()));
      }
      if (live.size() > removed.size() && rnd.nextBoolean()) { // a changed filter, same id
        PacketSubscription p = pool.get(rnd.nextInt(pool.size()));
        added.add(new PacketSubscription(live.get(live.size() - 1), p.filter(), p.dnf()));
      }
      Map<Long, Compilation> before = new HashMap<>(r.compilations());
      RoutingUpdate u = r.update(host, added, List.copyOf(removed));

      assertThat(u.diffs().keySet())
          .isEqualTo(r.sets().actionsFor(FAT_TREE.hostIndex(host)).keySet());
      assertThat(u.switches()).isEqualTo(policy == RoutingPolicy.MR ? 7 : 20);
      for (long s : FAT_TREE.bottomUp()) {
        if (u.diffs().containsKey(s)) {
          assertThat(r.compilation(s).isIncremental()).isTrue();
        } else {
          assertThat(r.compilation(s)).isSameAs(before.get(s));
        }
      }
      CamusRouting full = CamusRouting.compile(FAT_TREE, SPEC, policy, alpha, r.subscriptions());
      for (long s : FAT_TREE.bottomUp()) {
        Compilation inc = r.compilation(s);
        Compilation all = full.compilation(s);
        assertThat(new HashSet<>(inc.rules()))
            .as("rules of %d", s)
            .isEqualTo(new HashSet<>(all.rules()));
        assertThat(inc.pipeline().entries()).isEqualTo(all.pipeline().entries());
        assertThat(inc.pipeline().groups()).hasSameSizeAs(all.pipeline().groups());
        SoftwarePipeline a = SoftwarePipeline.of(inc.pipeline());
        SoftwarePipeline b = SoftwarePipeline.of(all.pipeline());
        for (Event e : events) {
          long[] v = SPEC.values(e);
          assertThat(a.actions(v)).as("switch %d, %s", s, e).isEqualTo(b.actions(v));
        }
      }
    }
  }
}
