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
  // for the successive batches: the routing, each switch's pipeline, the hosts, the random source
  private Topology topology;
  private Hierarchy hierarchy;
  private CamusRouting routing;
  private Map<Long, OpenFlowPipeline> pipelines;
  private Random random;
  private final List<Map<Long, FlowInvariants.Change>> chain = new ArrayList<>();
  private Map<Long, FlowInvariants.Change> unsubscribe; // the subscription's batch undone
  private int next;

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
    this.topology = t;
    this.hierarchy = h;
    this.routing = routing;
    this.pipelines = pipelines;
    this.random = r;
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
    Map<Long, FlowInvariants.Proposal> base = new TreeMap<>();
    for (long dpid : t.switches()) {
      var p = routing.compilation(dpid).pipeline();
      var of = pipelines.get(dpid);
      base.put(dpid, new FlowInvariants.Proposal(of.flows(p), of.groups(p)));
    }
    Ipv6Address host = h.hosts().get(r.nextInt(h.hosts().size()));
    RoutingUpdate u = routing.update(host, List.of(subscription(r, "new")), List.of());
    subscribe = new TreeMap<>();
    unsubscribe = new TreeMap<>();
    mods = 0;
    for (long dpid : u.diffs().keySet()) {
      var p = routing.compilation(dpid).pipeline();
      FlowInvariants.Change c =
          checker.changeTo(dpid, pipelines.get(dpid).flows(p), pipelines.get(dpid).groups(p));
      subscribe.put(dpid, c);
      FlowInvariants.Proposal b = base.get(dpid);
      unsubscribe.put(
          dpid,
          new FlowInvariants.Change(
              c.added(),
              c.removed(),
              c.groupsPut().stream()
                  .map(GroupEntry::groupId)
                  .filter(g -> b.groups().stream().noneMatch(x -> x.groupId() == g))
                  .toList(),
              b.groups().stream()
                  .filter(
                      x ->
                          c.groupsRemoved().contains(x.groupId())
                              || c.groupsPut().stream().anyMatch(g -> g.groupId() == x.groupId()))
                  .toList()));
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

  /**
   * Offers the subscription's batch and then its undoing, both taken: the state is the set-up's
   * again, and a checker that keeps state across checks has it as a running service would when the
   * same switches' previous batch was taken (the subscription's batch can then be checked again).
   */
  public void warm() {
    if (checker.offerRegion(subscribe, QueryAddressLayout.prefix()).isPresent()
        || checker.offerRegion(unsubscribe, QueryAddressLayout.prefix()).isPresent()) {
      throw new IllegalStateException("the subscription's batch or its undoing was refused");
    }
  }

  /**
   * Takes the subscription's batch and makes {@code n} more, each a new subscription at a random
   * host, its switches' net change after the one before it: the checks of a running service, each
   * after the last was taken (what a checker keeping state across checks meets). The mean flow-mods
   * per batch.
   */
  public int prepareSuccessive(int n) {
    if (checker.offerRegion(subscribe, QueryAddressLayout.prefix()).isPresent()) {
      throw new IllegalStateException("the subscription's batch was refused");
    }
    FlowInvariants scratch = new FlowInvariants(topology, ContentFlows.EVENT_PORT);
    for (long dpid : topology.switches()) {
      var p = routing.compilation(dpid).pipeline();
      scratch.put(dpid, pipelines.get(dpid).flows(p), pipelines.get(dpid).groups(p));
    }
    int total = 0;
    for (int i = 0; i < n; i++) {
      Ipv6Address host = hierarchy.hosts().get(random.nextInt(hierarchy.hosts().size()));
      RoutingUpdate u = routing.update(host, List.of(subscription(random, "c" + i)), List.of());
      Map<Long, FlowInvariants.Change> batch = new TreeMap<>();
      for (long dpid : u.diffs().keySet()) {
        var p = routing.compilation(dpid).pipeline();
        FlowInvariants.Change c =
            scratch.changeTo(dpid, pipelines.get(dpid).flows(p), pipelines.get(dpid).groups(p));
        batch.put(dpid, c);
        total += c.added().size() + c.removed().size() + c.groupsPut().size();
        total += c.groupsRemoved().size();
      }
      scratch.take(batch);
      chain.add(batch);
    }
    return Math.max(1, total / n);
  }

  /** The next of {@link #prepareSuccessive}'s batches, offered and taken (accepted). */
  public Optional<Violation> successiveBatch() {
    Optional<Violation> v = checker.offerRegion(chain.get(next++), QueryAddressLayout.prefix());
    if (v.isPresent()) {
      throw new IllegalStateException("a successive batch was refused: " + v.get());
    }
    return v;
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
