package org.netpubsub.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;
import org.netpubsub.network.camus.FatTree;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.pleroma.Advertisement;
import org.netpubsub.network.pleroma.Configurator;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.pleroma.Subscription;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The flows of testbed/experiments/layout_switch.py's switch, without the test bed: PLEROMA's test
 * bed (10 four-port switches, 8 hosts; testbed/nps_testbed/topologies.py), the base forwarding
 * app's routes, one publisher advertising everything from h1, {@code n} subscriptions {@code a0 in
 * [lo, lo + 63]} round robin on h2..h8, covered under the old index ({@code [a0]}, 16 bits, event
 * port 7073) and under the new layout ({@code a0:12, a1:2}, event port 7074).
 */
public record LayoutSwitchScenario(
    Topology topology,
    SortedMap<Long, List<FlowEntry>> base,
    SortedMap<Long, List<FlowEntry>> oldContent,
    SortedMap<Long, List<FlowEntry>> newContent) {
  /** The event port of the new layout's flows (the even index version's, IndexVersion). */
  public static final int NEW_PORT = ContentFlows.EVENT_PORT + 1;

  private static final String SCHEMA =
      """
      name: switched
      attributes:
        - name: a0
          type: int
          min: 0
          max: 65535
        - name: a1
          type: int
          min: 0
          max: 65535
      index: [a0]
      """;

  private static final String NEW_SCHEMA =
      SCHEMA.replace(
          "index: [a0]\n",
          """
          index: [a0, a1]
          layout:
            bits: ["a0:12", "a1:2"]
          """);

  /** The scenario with {@code subscriptions} standing subscriptions (seeded). */
  public static LayoutSwitchScenario of(int subscriptions, long seed) {
    Topology t = pleroma();
    Schema schema = SchemaLoader.parse(SCHEMA, "switched");
    Schema next = SchemaLoader.parse(NEW_SCHEMA, "switched");
    List<String> filters = new ArrayList<>();
    Random r = new Random(seed);
    for (int i = 0; i < subscriptions; i++) {
      int lo = r.nextInt(65536 - 64);
      filters.add("a0 in [" + lo + ", " + (lo + 63) + "]");
    }
    return new LayoutSwitchScenario(
        t,
        UnicastRouting.desiredFlows(t),
        content(t, new SpatialIndex(schema, 16), schema, filters, ContentFlows.EVENT_PORT),
        content(t, SpatialIndex.withDefaultLength(next), next, filters, NEW_PORT));
  }

  /** The guard of the old event port on every switch (ContentFlows.guard). */
  public SortedMap<Long, List<FlowEntry>> guards() {
    SortedMap<Long, List<FlowEntry>> out = new TreeMap<>();
    topology
        .switches()
        .forEach(d -> out.put(d, List.of(ContentFlows.guard(ContentFlows.EVENT_PORT))));
    return out;
  }

  private static SortedMap<Long, List<FlowEntry>> content(
      Topology t, SpatialIndex index, Schema schema, List<String> filters, int port) {
    Configurator c = Configurator.on(t);
    List<Ipv6Address> hosts = new ArrayList<>(t.hosts().keySet());
    c.advertise(new Advertisement("pub", hosts.getFirst(), DzSet.ALL));
    for (int i = 0; i < filters.size(); i++) {
      DzSet cells =
          index.cover(
              Normalizer.toDnf(FilterParser.parse(schema, filters.get(i))),
              SpatialIndex.DEFAULT_MAX_CELLS);
      Ipv6Address host = hosts.get(1 + i % (hosts.size() - 1));
      c.subscribe(new Subscription("s" + i, host, 41000 + i / (hosts.size() - 1), cells));
    }
    SortedMap<Long, List<FlowEntry>> out = new TreeMap<>();
    for (long dpid : t.switches()) {
      out.put(
          dpid,
          c.flows(dpid).stream()
              .map(e -> e.toBuilder().match(e.match().toBuilder().udpDst(port).build()).build())
              .toList());
    }
    return out;
  }

  /**
   * Two cores (1, 2) over two pods of two aggregation (3, 4; 5, 6) and two edge switches (7, 8; 9,
   * 10), two hosts per edge switch, every aggregation switch linked to both cores.
   */
  static Topology pleroma() {
    Topology t = Topology.EMPTY;
    int host = 0;
    for (long edge = 7; edge <= 10; edge++) {
      for (int p = 1; p <= 2; p++) {
        host++;
        t = t.addSwitch(edge, p);
        t =
            t.addHost(
                new Host(
                    FatTree.hostAddress(host), FatTree.hostMac(host), new SwitchPort(edge, p)));
      }
    }
    for (int pod = 0; pod < 2; pod++) {
      for (int e = 0; e < 2; e++) {
        for (int a = 0; a < 2; a++) {
          t = t.addLink(Link.of(3 + 2 * pod + a, e + 1, 7 + 2 * pod + e, a + 3));
        }
      }
      for (int a = 0; a < 2; a++) {
        for (int core = 0; core < 2; core++) {
          t = t.addLink(Link.of(3 + 2 * pod + a, core + 3, core + 1, 2 * pod + a + 1));
        }
      }
    }
    return t;
  }
}
