package org.netpubsub.network.camus;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.ItchModel;
import org.netpubsub.content.workload.Subscription;
import org.netpubsub.content.workload.Workload;
import org.netpubsub.content.workload.WorkloadSpec;

/** ITCH workloads on the k=4 fat tree of the test bed, and the ground truth of who wants what. */
final class CamusFixtures {
  static final MessageSpec SPEC = BuiltinSpecs.itch();
  static final Hierarchy FAT_TREE = Hierarchy.of(FatTree.of(4));

  private CamusFixtures() {}

  /**
   * A seeded ITCH workload for the 16 hosts: the rich model over {@code symbols} stocks (Zipf:
   * overlapping interests, price ranges, shares), or the simple one ({@code stock == S && price >
   * P}).
   */
  static Workload itch(long seed, int subscriptions, int events, boolean rich, int symbols) {
    ItchModel m =
        new ItchModel(rich ? ItchModel.Variant.RICH : ItchModel.Variant.SIMPLE, symbols, 1);
    return m.generate(
        new WorkloadSpec(seed, subscriptions, events, 16, HostAssignment.RANDOM, Arrival.NONE));
  }

  /** Subscription i of the workload as id {@code prefix + i}, at host hN for {@code ports [N]}. */
  static Map<Ipv6Address, List<PacketSubscription>> byHost(Workload w, String prefix) {
    Map<Ipv6Address, List<PacketSubscription>> out = new LinkedHashMap<>();
    List<Subscription> subs = w.subscriptions();
    for (int i = 0; i < subs.size(); i++) {
      Subscription s = subs.get(i);
      out.computeIfAbsent(FatTree.hostAddress(s.ports().get(0)), h -> new ArrayList<>())
          .add(PacketSubscription.parse(SPEC.schema(), prefix + i, s.filter()));
    }
    return out;
  }

  /** The hosts with a subscription that matches the event, by direct evaluation. */
  static BitSet interested(
      Hierarchy h, Map<Ipv6Address, List<PacketSubscription>> subscriptions, Event e) {
    BitSet b = new BitSet();
    subscriptions.forEach(
        (host, subs) -> {
          if (subs.stream().anyMatch(s -> FilterEvaluator.matches(s.dnf(), e))) {
            b.set(h.hostIndex(host));
          }
        });
    return b;
  }
}
