package org.netpubsub.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.camus.CamusRouting;
import org.netpubsub.network.camus.FatTree;
import org.netpubsub.network.camus.Hierarchy;
import org.netpubsub.network.camus.PacketSubscription;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.camus.RoutingUpdate;
import org.netpubsub.network.camus.openflow.OpenFlowPipeline;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.invariants.FlowInvariants;
import org.netpubsub.network.invariants.Violation;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The invariant checker on the Camus pipeline's batches ({@link FlowInvariants#offerRegion}) on a
 * fat tree: every switch holds its compiled pipeline for {@code subscriptions} ITCH subscriptions
 * (MR; a stock of 32, a price bound, a side), and one subscription's batch (its switches' net
 * change) is checked, nothing taken, so every call checks the same. The setup prints the batch's
 * flow-mods (flows added and removed, groups put and removed), the divisor for µs per flow-mod.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CamusInvariantsBenchmark {
  @Param({"4", "8"})
  public int k;

  @Param({"256"})
  public int subscriptions;

  private static final MessageSpec SPEC = BuiltinSpecs.itch();
  private static final QueryAddressLayout LAYOUT = QueryAddressLayout.of(SPEC);

  private FlowInvariants checker;
  private Map<Long, FlowInvariants.Change> subscribe;
  private Map<Long, FlowInvariants.Change> reflecting;

  /** The subscription batch's flow-mods (set up): the divisor for µs per flow-mod. */
  public int mods;

  @Setup
  public void setUp() {
    Topology t = FatTree.of(k);
    Hierarchy h = Hierarchy.of(t);
    Random r = new Random(1);
    Map<Ipv6Address, List<PacketSubscription>> byHost = new LinkedHashMap<>();
    for (int i = 0; i < subscriptions; i++) {
      Ipv6Address host = h.hosts().get(r.nextInt(h.hosts().size()));
      byHost.computeIfAbsent(host, x -> new ArrayList<>()).add(subscription(r, "s" + i));
    }
    CamusRouting routing = CamusRouting.compile(h, LAYOUT.carried(), RoutingPolicy.MR, 1, byHost);
    Map<Long, OpenFlowPipeline> pipelines = new TreeMap<>();
    checker = new FlowInvariants(t, ContentFlows.EVENT_PORT);
    for (long dpid : t.switches()) {
      OpenFlowPipeline of =
          new OpenFlowPipeline(
              LAYOUT,
              OpenFlowPipeline.Config.camus(
                  List.copyOf(h.upPorts(dpid)), ContentFlows.EVENT_PORT, a -> bucket(t, dpid, a)));
      pipelines.put(dpid, of);
      var p = routing.compilation(dpid).pipeline();
      checker.put(dpid, of.flows(p), of.groups(p));
    }
    Ipv6Address host = h.hosts().get(r.nextInt(h.hosts().size()));
    RoutingUpdate u = routing.update(host, List.of(subscription(r, "new")), List.of());
    subscribe = new TreeMap<>();
    mods = 0;
    for (long dpid : u.diffs().keySet()) {
      var p = routing.compilation(dpid).pipeline();
      FlowInvariants.Change c =
          checker.changeTo(dpid, pipelines.get(dpid).flows(p), pipelines.get(dpid).groups(p));
      subscribe.put(dpid, c);
      mods += c.added().size() + c.removed().size() + c.groupsPut().size();
      mods += c.groupsRemoved().size();
    }
    // a core switch and an aggregation switch below it each send copies back: refused (a loop)
    long core = h.layer(h.layerCount() - 1).getFirst();
    long agg = t.neighbours(core).first();
    reflecting = new TreeMap<>();
    for (long dpid : List.of(core, agg)) {
      var p = routing.compilation(dpid).pipeline();
      List<GroupEntry> gs = new ArrayList<>();
      for (GroupEntry g : pipelines.get(dpid).groups(p)) {
        List<Bucket> b = new ArrayList<>(g.buckets());
        if (g.type() == GroupType.ALL) {
          b.add(Bucket.of(Action.output(OfPort.IN_PORT)));
        }
        gs.add(new GroupEntry(g.groupId(), g.type(), b));
      }
      reflecting.put(dpid, checker.changeTo(dpid, pipelines.get(dpid).flows(p), gs));
    }
    if (checker.checkRegion(subscribe, QueryAddressLayout.prefix()).isPresent()
        || checker.checkRegion(reflecting, QueryAddressLayout.prefix()).isEmpty()) {
      throw new IllegalStateException("the scenarios' verdicts are not what they say");
    }
    System.err.printf(
        "camus k=%d subscriptions=%d: the subscription's batch is %d flow-mods on %d switches%n",
        k, subscriptions, mods, subscribe.size());
  }

  private static PacketSubscription subscription(Random r, String id) {
    List<String> parts = new ArrayList<>();
    parts.add("stock == \"S" + r.nextInt(32) + "\"");
    if (r.nextBoolean()) {
      parts.add("price " + (r.nextBoolean() ? ">" : "<") + " " + (1 + r.nextInt(1000)) * 100);
    }
    if (r.nextInt(3) == 0) {
      parts.add("side == \"" + (r.nextBoolean() ? "B" : "S") + "\"");
    }
    return PacketSubscription.parse(SPEC.schema(), id, String.join(" && ", parts));
  }

  /** As the Camus engine: towards a host rewritten to its address, else out of the port. */
  private static List<Action> bucket(Topology t, long dpid, int port) {
    for (var host : t.hosts().values()) {
      if (host.attachment().dpid() == dpid && host.attachment().port() == port) {
        return List.of(new Action.SetIpv6Dst(host.address()), Action.output(port));
      }
    }
    return List.of(Action.output(port));
  }

  /** One subscription's batch on its switches (accepted). */
  @Benchmark
  public Optional<Violation> subscriptionBatch() {
    return checker.checkRegion(subscribe, QueryAddressLayout.prefix());
  }

  /** Two neighbours' groups sending copies back (refused: the walk stops at the loop). */
  @Benchmark
  public Optional<Violation> reflectingRefused() {
    return checker.checkRegion(reflecting, QueryAddressLayout.prefix());
  }
}
