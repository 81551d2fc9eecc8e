package org.netpubsub.network.invariants;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.event.Event;
import org.netpubsub.network.camus.CamusRouting;
import org.netpubsub.network.camus.Hierarchy;
import org.netpubsub.network.camus.PacketSubscription;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.camus.RoutingUpdate;
import org.netpubsub.network.camus.openflow.OpenFlowPipeline;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.topology.Topology;

/**
 * Random Camus workloads (ITCH: a few stocks, price bounds, sides) on a small hierarchy, installed
 * as the controller's Camus engine installs them ({@link OpenFlowPipeline} per switch, a host's
 * port rewritten to its address as the last hop does), and every address that behaves differently
 * under them: each stock used and one not, each price bound and its neighbours, each side and one
 * other byte — the brute-force twin's universe.
 */
final class CamusTables {
  static final MessageSpec SPEC = BuiltinSpecs.itch();
  static final QueryAddressLayout LAYOUT = QueryAddressLayout.of(SPEC);
  static final int EVENT_PORT = 7073;
  private static final List<String> STOCKS = List.of("GOOGL", "AAPL", "MSFT");

  final Topology topology;
  final Hierarchy hierarchy;
  final CamusRouting routing;
  private final Map<Long, OpenFlowPipeline> pipelines = new LinkedHashMap<>();
  private final TreeSet<Long> prices = new TreeSet<>(List.of(0L, 1L, 0xffffffffL));
  private final Random random;
  private int next;

  CamusTables(Topology topology, long seed, RoutingPolicy policy, int subscriptions) {
    this.topology = topology;
    this.hierarchy = Hierarchy.of(topology);
    this.random = new Random(seed);
    Map<Ipv6Address, List<PacketSubscription>> byHost = new LinkedHashMap<>();
    for (int i = 0; i < subscriptions; i++) {
      byHost.computeIfAbsent(randomHost(), h -> new ArrayList<>()).add(randomSubscription());
    }
    this.routing = CamusRouting.compile(hierarchy, LAYOUT.carried(), policy, 1, byHost);
    for (long dpid : topology.switches()) {
      pipelines.put(
          dpid,
          new OpenFlowPipeline(
              LAYOUT,
              OpenFlowPipeline.Config.camus(
                  List.copyOf(hierarchy.upPorts(dpid)), EVENT_PORT, a -> bucket(dpid, a))));
    }
  }

  Ipv6Address randomHost() {
    return hierarchy.hosts().get(random.nextInt(hierarchy.hosts().size()));
  }

  /** A filter over the carried fields, its price bounds noted for the universe. */
  PacketSubscription randomSubscription() {
    List<String> parts = new ArrayList<>();
    if (random.nextInt(4) > 0) {
      parts.add("stock == \"" + STOCKS.get(random.nextInt(STOCKS.size())) + "\"");
    }
    if (random.nextBoolean()) {
      long p = 100 + random.nextInt(5) * 1000L;
      prices.add(p);
      parts.add("price " + (random.nextBoolean() ? ">" : "<") + " " + p);
    }
    if (random.nextInt(3) == 0) {
      parts.add("side == \"" + (random.nextBoolean() ? "B" : "S") + "\"");
    }
    String filter = parts.isEmpty() ? "price >= 0" : String.join(" && ", parts);
    return PacketSubscription.parse(SPEC.schema(), "s" + next++, filter);
  }

  /** A subscription added at a random host, or one of its own withdrawn. */
  RoutingUpdate randomUpdate() {
    Ipv6Address host = randomHost();
    List<PacketSubscription> mine = routing.subscriptions(host);
    if (!mine.isEmpty() && random.nextInt(3) == 0) {
      return routing.update(host, List.of(), List.of(mine.get(random.nextInt(mine.size())).id()));
    }
    return routing.update(host, List.of(randomSubscription()), List.of());
  }

  List<FlowEntry> flows(long dpid) {
    return pipelines.get(dpid).flows(routing.compilation(dpid).pipeline());
  }

  List<GroupEntry> groups(long dpid) {
    return pipelines.get(dpid).groups(routing.compilation(dpid).pipeline());
  }

  /** Towards a switch: out of the port; to a host: rewritten to its address, as the engine does. */
  private List<Action> bucket(long dpid, int port) {
    for (var h : topology.hosts().values()) {
      if (h.attachment().dpid() == dpid && h.attachment().port() == port) {
        return List.of(new Action.SetIpv6Dst(h.address()), Action.output(port));
      }
    }
    return List.of(Action.output(port));
  }

  /** Every address that some table may treat apart from the others (see the class comment). */
  List<Ipv6Address> universe() {
    return universe(List.of());
  }

  /**
   * The universe when some table also tests {@code cuts}: prefixes of the address longer than
   * ff0e::/16 that end in the stock (as a table 0 narrowed to part of the space). Stock 0 stands
   * for every stock no subscription names only while those stocks behave alike; a cut splits them,
   * so one such stock per side of every cut is added (each cut's prefix and, at each of its bits,
   * the other branch, zeros after: every cell of the cuts' prefix tree holds one of these), one per
   * distinct membership in the cuts. Without them a black hole for the stocks outside a cut
   * containing stock 0 (e.g. ff0e::/17: every stock from byte 0x80) is invisible to the twin.
   */
  List<Ipv6Address> universe(Collection<MaskedIpv6> cuts) {
    List<Long> stocks = new ArrayList<>();
    for (String s : STOCKS) {
      stocks.add(values(s, 1, "B")[0]);
    }
    stocks.add(0L);
    Set<List<Boolean>> seen = new HashSet<>();
    seen.add(inside(cuts, 0L));
    for (MaskedIpv6 cut : cuts) {
      int bits = Long.bitCount(cut.mask().high()) + Long.bitCount(cut.mask().low());
      int k = bits - STOCK_OFFSET;
      if (!cut.mask().equals(Ipv6Address.prefixMask(bits)) || k <= 0 || k > 64) {
        throw new IllegalArgumentException("cut " + cut + ": not a prefix ending in the stock");
      }
      long v = stock(cut.value()) & (-1L << (64 - k));
      List<Long> candidates = new ArrayList<>(List.of(v));
      for (int j = 0; j < k; j++) {
        long bit = 1L << (63 - j);
        long above = j == 0 ? 0 : v & (-1L << (64 - j));
        candidates.add(above | (~v & bit)); // the other branch at bit j
      }
      for (long c : candidates) {
        if (!stocks.contains(c) && seen.add(inside(cuts, c))) {
          stocks.add(c);
        }
      }
    }
    List<Long> sides = List.of(values("A", 1, "B")[2], values("A", 1, "S")[2], 0L);
    TreeSet<Long> ps = new TreeSet<>();
    for (long p : prices) {
      for (long d = -1; d <= 1; d++) {
        if (p + d >= 0 && p + d <= 0xffffffffL) {
          ps.add(values("A", p + d, "B")[1]);
        }
      }
    }
    List<Ipv6Address> out = new ArrayList<>();
    for (long s : stocks) {
      for (long p : ps) {
        for (long side : sides) {
          out.add(LAYOUT.address(new long[] {s, p, side}));
        }
      }
    }
    return out;
  }

  private static final int STOCK_OFFSET = LAYOUT.offset(0); // 16: the stock first, 64 bits

  /** The stock's 64 bits of an address. */
  private static long stock(Ipv6Address a) {
    return (a.high() << STOCK_OFFSET) | (a.low() >>> (64 - STOCK_OFFSET));
  }

  /** Which cuts hold an address with this stock (the cuts end in the stock: the rest is free). */
  private static List<Boolean> inside(Collection<MaskedIpv6> cuts, long stock) {
    Ipv6Address a = LAYOUT.address(new long[] {stock, 0, 0});
    return cuts.stream().map(c -> c.matches(a)).toList();
  }

  private static long[] values(String stock, long price, String side) {
    Event e =
        Event.builder(SPEC.schema())
            .set("stock", stock)
            .set("price", price)
            .set("shares", 1L)
            .set("side", side)
            .build();
    return LAYOUT.carried().values(e);
  }
}
