package org.netpubsub.bench;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.concurrent.TimeUnit;
import org.netpubsub.network.camus.FatTree;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.invariants.FlowInvariants;
import org.netpubsub.network.invariants.Violation;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.Instruction;
import org.netpubsub.network.openflow.Match;
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
 * The flow service's invariant checker at fat-tree scale: every switch holds the base forwarding
 * app's routes to every host (k = 8: 80 switches, 128 hosts, ~10 700 entries), and one flow-mod is
 * checked — its delta applied to its switch's index, its packet classes walked from that switch's
 * ports and its neighbours', the delta undone. Each benchmark is the check of one one-mod batch (µs
 * per flow-mod; VeriFlow reports hundreds of µs per update). Nothing is taken, so every call checks
 * the same.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class InvariantsBenchmark {
  @Param({"8"})
  public int k;

  private FlowInvariants checker;
  private Map<Long, FlowInvariants.Change> reroute;
  private Map<Long, FlowInvariants.Change> content;
  private Map<Long, FlowInvariants.Change> removed;

  @Setup
  public void setUp() {
    Topology t = FatTree.of(k);
    checker = new FlowInvariants(t, ContentFlows.EVENT_PORT);
    SortedMap<Long, List<FlowEntry>> base = UnicastRouting.desiredFlows(t);
    base.forEach((dpid, flows) -> checker.put(dpid, flows, List.of()));
    int half = k / 2;
    long edge = FatTree.edge(k, 0, 0);
    long remoteHost = t.hosts().size(); // in the last pod
    List<FlowEntry> flows = base.get(edge);
    // a route to a remote host moved to another up port: a reroute, accepted
    FlowEntry old = route(flows, remoteHost);
    reroute = change(edge, List.of(old), List.of(withOutput(old, otherUpPort(old, half))));
    // a content flow towards a host port: accepted
    content =
        change(
            edge,
            List.of(),
            List.of(
                FlowEntry.builder()
                    .priority(ContentFlows.PRIORITY_BASE + 1)
                    .cookie(ContentFlows.COOKIE)
                    .match(
                        Match.builder()
                            .udp6()
                            .udpDst(ContentFlows.EVENT_PORT)
                            .ipv6Dst("ff0e:8000::/17")
                            .build())
                    .apply(new Action.Output(1))
                    .build()));
    // the route removed at the aggregation switch the edge sends it to: a black hole, refused
    long up = ((Action.Output) route(flows, remoteHost).applyActions().getFirst()).port();
    long agg = FatTree.aggregation(k, 0, (int) up - half - 1);
    removed = change(agg, List.of(route(base.get(agg), remoteHost)), List.of());
    if (checker.check(reroute).isPresent()
        || checker.check(content).isPresent()
        || checker.check(removed).isEmpty()) {
      throw new IllegalStateException("the scenarios' verdicts are not what they say");
    }
  }

  private static Map<Long, FlowInvariants.Change> change(
      long dpid, List<FlowEntry> out, List<FlowEntry> in) {
    return Map.of(dpid, new FlowInvariants.Change(out, in, List.of(), List.of()));
  }

  private static FlowEntry route(List<FlowEntry> flows, long host) {
    return flows.stream()
        .filter(
            f ->
                f.match().ipv6Dst() != null
                    && f.match().ipv6Dst().value().equals(FatTree.hostAddress((int) host)))
        .findFirst()
        .orElseThrow();
  }

  private static long otherUpPort(FlowEntry f, int half) {
    long now = ((Action.Output) f.applyActions().getFirst()).port();
    return now == half + 1 ? half + 2 : half + 1;
  }

  private static FlowEntry withOutput(FlowEntry f, long port) {
    return f.withInstructions(List.of(Instruction.apply(new Action.Output(port))));
  }

  /** One route of an edge switch moved to another up port (unicast class, accepted). */
  @Benchmark
  public Optional<Violation> unicastReroute() {
    return checker.check(reroute);
  }

  /** One content flow added at an edge switch (content class, accepted). */
  @Benchmark
  public Optional<Violation> contentFlowAdd() {
    return checker.check(content);
  }

  /** One route removed where traffic still arrives (refused: the walk stops at the hole). */
  @Benchmark
  public Optional<Violation> routeRemovedRefused() {
    return checker.check(removed);
  }
}
