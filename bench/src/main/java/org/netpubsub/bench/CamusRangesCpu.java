package org.netpubsub.bench;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;
import org.netpubsub.network.camus.CamusRouting;
import org.netpubsub.network.camus.FatTree;
import org.netpubsub.network.camus.Hierarchy;
import org.netpubsub.network.camus.PacketSubscription;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.camus.RoutingUpdate;
import org.netpubsub.network.camus.openflow.OpenFlowPipeline;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.invariants.FlowInvariants;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.topology.Topology;

/**
 * The Camus check on the test bed's workload (testbed/tests/test_camus_ovs.py, camus-mr, its seed):
 * a k=4 fat tree with no subscriptions, then the test's eight range filters over three 0-255 ints,
 * each a subscription at another host, each batch offered and taken as the running service does.
 * Prints each batch's flow-mods and check time. Stop 42 found these checks take seconds to tens of
 * seconds (the region walk's pipeline runs grow from hundreds to 336 000 per check), which holds
 * the controller's loop past Open vSwitch's inactivity probe: why the check is still off for Camus
 * (docs/results/invariants-camus-ranges.md "Stop 42"). Unlike {@link InvariantsCpu}'s ITCH filters
 * (one stock, one price bound), these ranges cut three fields at arbitrary bounds.
 *
 * <pre>java -cp bench/target/benchmarks.jar org.netpubsub.bench.CamusRangesCpu [ROUNDS]</pre>
 */
public final class CamusRangesCpu {
  private CamusRangesCpu() {}

  private static final String SCHEMA =
      """
      name: random
      attributes:
        - {name: a0, type: int, min: 0, max: 255}
        - {name: a1, type: int, min: 0, max: 255}
        - {name: a2, type: int, min: 0, max: 255}
        - {name: sym, type: string, max_length: 4}
      index: [a0, a1, a2]
      """;

  // random_filter's first eight for NPS_TEST_SEED 20261123, camus-mr (test_camus_ovs.py)
  private static final List<String> FILTERS =
      List.of(
          "sym == \"AB\" && a2 < 9",
          "sym == \"AA\"",
          "a2 >= 64",
          "sym prefix \"A\"",
          "a1 in [231, 255] && a1 in [92, 141]",
          "a0 >= 220",
          "(sym prefix \"C\") || a1 in [246, 249]",
          "a1 in [44, 145] && a2 in [13, 99]");

  public static void main(String[] args) {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    Schema schema = SchemaLoader.parse(SCHEMA, "camus-ranges");
    QueryAddressLayout layout = QueryAddressLayout.of(MessageSpec.fromSchema(schema));
    for (int round = 0; round < rounds; round++) {
      Topology t = FatTree.of(4);
      Hierarchy h = Hierarchy.of(t);
      CamusRouting routing =
          CamusRouting.compile(h, layout.carried(), RoutingPolicy.MR, 1, new HashMap<>());
      Map<Long, OpenFlowPipeline> pipelines = new TreeMap<>();
      FlowInvariants checker = new FlowInvariants(t, ContentFlows.EVENT_PORT);
      for (long dpid : t.switches()) {
        OpenFlowPipeline of =
            new OpenFlowPipeline(
                layout,
                OpenFlowPipeline.Config.camus(
                    List.copyOf(h.upPorts(dpid)),
                    ContentFlows.EVENT_PORT,
                    port -> List.of(Action.output(port))));
        pipelines.put(dpid, of);
        var p = routing.compilation(dpid).pipeline();
        checker.put(dpid, of.flows(p), of.groups(p));
      }
      double total = 0;
      for (int i = 0; i < FILTERS.size(); i++) {
        // every other host, as the test's subscribers sit on h2, h4, ...
        Ipv6Address host = h.hosts().get((2 * i + 1) % h.hosts().size());
        PacketSubscription s = PacketSubscription.parse(schema, "s" + i, FILTERS.get(i));
        RoutingUpdate u = routing.update(host, List.of(s), List.of());
        Map<Long, FlowInvariants.Change> batch = new TreeMap<>();
        int mods = 0;
        for (long dpid : u.diffs().keySet()) {
          var p = routing.compilation(dpid).pipeline();
          FlowInvariants.Change c =
              checker.changeTo(dpid, pipelines.get(dpid).flows(p), pipelines.get(dpid).groups(p));
          batch.put(dpid, c);
          mods += c.added().size() + c.removed().size();
          mods += c.groupsPut().size() + c.groupsRemoved().size();
        }
        long start = System.nanoTime();
        var verdict = checker.offerRegion(batch, QueryAddressLayout.prefix());
        double ms = (System.nanoTime() - start) / 1e6;
        total += ms;
        System.out.printf(
            "round %d subscription %d: %d switches, %d flow-mods, check %.1f ms%s%n",
            round, i, batch.size(), mods, ms, verdict.map(v -> ", refused: " + v).orElse(""));
      }
      System.out.printf("round %d: all checks %.1f ms%n", round, total);
    }
  }
}
