package org.netpubsub.network.camus.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.camus.CamusRouting;
import org.netpubsub.network.camus.Hierarchy;
import org.netpubsub.network.camus.PacketSubscription;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * Issue 27 part 7 for Camus (RequestOrderProperties is multicast's): a controller that restarts
 * learns the standing subscriptions again in another order than they came, without the adds and
 * removals before them. It must want the same flows and groups on every switch, or it rewrites
 * them. The compiler numbers BDD states and groups compactly in the order it meets them (right for
 * a P4 target's table sizes); what the OpenFlow switches hold must not depend on that. Three
 * controllers: one that saw a history of subscriptions added, replaced and removed one at a time; a
 * restarted one fed the standing ones one at a time in a shuffled order; one that compiled them all
 * at once (a topology that became a hierarchy after the requests).
 */
class CamusRequestOrderProperties {
  private static final MessageSpec SPEC = BuiltinSpecs.itch();
  private static final QueryAddressLayout LAYOUT = QueryAddressLayout.of(SPEC);
  private static final int EVENT_PORT = 7073;
  private static final List<String> STOCKS = List.of("GOOGL", "AAPL", "MSFT");

  @Property(tries = 40)
  void standingSubscriptionsGiveTheSameSwitchStateWhateverTheOrderTheyCameIn(
      @ForAll long seed,
      @ForAll @IntRange(min = 0, max = 2) int shape,
      @ForAll RoutingPolicy policy,
      @ForAll boolean approximate) {
    Random r = new Random(seed);
    Topology t =
        switch (shape) {
          case 0 -> TestTopologies.tree(1, 3);
          case 1 -> TestTopologies.tree(2, 2);
          default -> TestTopologies.fatTree(2);
        };
    Hierarchy h = Hierarchy.of(t);
    long alpha = approximate ? 1_000 : 1;
    CamusRouting first = CamusRouting.compile(h, LAYOUT.carried(), policy, alpha, Map.of());
    Map<String, Ipv6Address> hostOf = new TreeMap<>();
    Map<String, PacketSubscription> standing = new TreeMap<>();
    for (int step = 0; step < 24; step++) {
      String id = "s" + r.nextInt(10);
      Ipv6Address was = hostOf.get(id);
      if (was != null && r.nextInt(3) == 0) {
        first.update(was, List.of(), List.of(id));
        hostOf.remove(id);
        standing.remove(id);
      } else {
        // a new subscription, or one replaced under its id by its host (a changed filter)
        Ipv6Address host = was != null ? was : h.hosts().get(r.nextInt(h.hosts().size()));
        PacketSubscription s = PacketSubscription.parse(SPEC.schema(), id, filter(r));
        first.update(host, List.of(s), List.of());
        hostOf.put(id, host);
        standing.put(id, s);
      }
    }
    List<String> again = new ArrayList<>(standing.keySet());
    Collections.shuffle(again, r);
    CamusRouting restarted = CamusRouting.compile(h, LAYOUT.carried(), policy, alpha, Map.of());
    for (String id : again) {
      restarted.update(hostOf.get(id), List.of(standing.get(id)), List.of());
    }
    assertSameSwitchState(t, h, first, restarted, "fed one at a time, shuffled");
    Collections.shuffle(again, r);
    Map<Ipv6Address, List<PacketSubscription>> byHost = new LinkedHashMap<>();
    for (String id : again) {
      byHost.computeIfAbsent(hostOf.get(id), k -> new ArrayList<>()).add(standing.get(id));
    }
    CamusRouting compiled = CamusRouting.compile(h, LAYOUT.carried(), policy, alpha, byHost);
    assertSameSwitchState(t, h, first, compiled, "compiled at once, shuffled");
  }

  /** A filter over the carried fields (stock, price, side), as CamusTables draws them. */
  private static String filter(Random r) {
    List<String> parts = new ArrayList<>();
    if (r.nextInt(4) > 0) {
      parts.add("stock == \"" + STOCKS.get(r.nextInt(STOCKS.size())) + "\"");
    }
    if (r.nextBoolean()) {
      parts.add("price " + (r.nextBoolean() ? ">" : "<") + " " + (100 + r.nextInt(5) * 1000L));
    }
    if (r.nextInt(3) == 0) {
      parts.add("side == \"" + (r.nextBoolean() ? "B" : "S") + "\"");
    }
    return parts.isEmpty() ? "price >= 0" : String.join(" && ", parts);
  }

  /** The same flows and groups on every switch (as sets: a switch holds no order among them). */
  private static void assertSameSwitchState(
      Topology t, Hierarchy h, CamusRouting a, CamusRouting b, String what) {
    for (long dpid : t.switches()) {
      OpenFlowPipeline of = pipeline(t, h, dpid);
      List<FlowEntry> flowsA = of.flows(a.compilation(dpid).pipeline());
      Set<GroupEntry> groupsA = new HashSet<>(of.groups(a.compilation(dpid).pipeline()));
      assertThat(new HashSet<>(flowsA)).hasSameSizeAs(flowsA);
      assertThat(new HashSet<>(of.flows(b.compilation(dpid).pipeline())))
          .as("%s: flows of %x", what, dpid)
          .isEqualTo(new HashSet<>(flowsA));
      assertThat(new HashSet<>(of.groups(b.compilation(dpid).pipeline())))
          .as("%s: groups of %x", what, dpid)
          .isEqualTo(groupsA);
    }
  }

  /** The switch's pipeline as the controller's Camus engine configures it. */
  private static OpenFlowPipeline pipeline(Topology t, Hierarchy h, long dpid) {
    return new OpenFlowPipeline(
        LAYOUT,
        OpenFlowPipeline.Config.camus(
            List.copyOf(h.upPorts(dpid)),
            EVENT_PORT,
            port -> {
              for (var host : t.hosts().values()) {
                if (host.attachment().dpid() == dpid && host.attachment().port() == port) {
                  return List.of(new Action.SetIpv6Dst(host.address()), Action.output(port));
                }
              }
              return List.of(Action.output(port));
            }));
  }
}
