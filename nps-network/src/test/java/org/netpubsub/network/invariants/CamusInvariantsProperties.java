package org.netpubsub.network.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.netpubsub.network.camus.RoutingUpdate;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.topology.Topology;

/**
 * The Camus pipeline's check ({@link FlowInvariants#offerRegion}) against the brute-force twin
 * ({@link NaiveFlowWalk}: every address of the workload's universe sent from every port through the
 * simulated network) on random ITCH workloads on small hierarchies, update after update, each also
 * mutated (a switch's table-0 entries gone, a group bucket to a random port, a leaf flow to another
 * group): the check finds a violation exactly when the twin does, the class it names does break,
 * and a refused batch leaves the index as it was.
 */
class CamusInvariantsProperties {
  private static final MaskedIpv6 SPACE = QueryAddressLayout.prefix();

  @Property(tries = 20)
  void agreesWithBruteForceWalk(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 2) int shape, @ForAll boolean mr) {
    CamusBed bed = new CamusBed(shape, seed, mr, 3);
    Topology t = bed.topology;
    CamusTables c = bed.camus;
    FlowInvariants checker = bed.checker;
    Map<Long, List<FlowEntry>> flows = bed.flows;
    Map<Long, List<GroupEntry>> groups = bed.groups;
    Random r = new Random(seed);
    for (int batch = 0; batch < 4; batch++) {
      RoutingUpdate u = c.randomUpdate();
      Map<Long, List<FlowEntry>> nextFlows = new HashMap<>(flows);
      Map<Long, List<GroupEntry>> nextGroups = new HashMap<>(groups);
      for (long dpid : u.diffs().keySet()) {
        nextFlows.put(dpid, c.flows(dpid));
        nextGroups.put(dpid, c.groups(dpid));
      }
      // a mutant of the update: check only
      Map<Long, List<FlowEntry>> mutFlows = new HashMap<>(nextFlows);
      Map<Long, List<GroupEntry>> mutGroups = new HashMap<>(nextGroups);
      List<Long> dpids = new ArrayList<>(t.switches());
      long victim = dpids.get(r.nextInt(dpids.size()));
      String kind = mutate(r, t, victim, mutFlows, mutGroups);
      List<Long> mutated = new ArrayList<>(u.diffs().keySet());
      if (!mutated.contains(victim)) {
        mutated.add(victim);
      }
      if (kind.startsWith("bucket") && r.nextBoolean()) {
        // a neighbour broken too: two switches sending copies back to each other loop
        List<Long> near = new ArrayList<>(t.neighbours(victim));
        long other = near.get(r.nextInt(near.size()));
        kind += ", twice: " + mutate(r, t, other, mutFlows, mutGroups);
        if (!mutated.contains(other)) {
          mutated.add(other);
        }
      }
      Statistics.label("mutant").collect(kind);
      boolean passed = agree(t, c, checker, mutFlows, mutGroups, mutated, false);
      Statistics.label("mutant verdict").collect(passed ? "no violation" : "violation");
      // the update itself: offered, and taken when nothing breaks
      boolean taken = agree(t, c, checker, nextFlows, nextGroups, u.diffs().keySet(), true);
      Statistics.label("update").collect(taken ? "accepted" : "refused");
      if (!taken) {
        return; // the routing went on without the switches: the rest would not be its state
      }
      flows = nextFlows;
      groups = nextGroups;
    }
  }

  /** Checks (or offers) the switches' next states; asserts the twin agrees; whether accepted. */
  private static boolean agree(
      Topology t,
      CamusTables c,
      FlowInvariants checker,
      Map<Long, List<FlowEntry>> flows,
      Map<Long, List<GroupEntry>> groups,
      java.util.Collection<Long> changed,
      boolean offer) {
    Map<Long, FlowInvariants.Change> changes = new TreeMap<>();
    for (long dpid : changed) {
      changes.put(dpid, checker.changeTo(dpid, flows.get(dpid), groups.get(dpid)));
    }
    var before = checker.snapshot();
    Optional<Violation> v =
        offer ? checker.offerRegion(changes, SPACE) : checker.checkRegion(changes, SPACE);
    NaiveFlowWalk twin = new NaiveFlowWalk(t, flows, groups, true);
    java.util.Set<Long> set = new java.util.HashSet<>(changed);
    boolean broken = twin.violated(c.universe(), set, CamusTables.EVENT_PORT);
    assertThat(v.isPresent()).as("%s", v).isEqualTo(broken);
    if (v.isPresent()) {
      assertThat(v.get().region()).isNotBlank();
      assertThat(twin.violated(v.get().packetClass(), set, CamusTables.EVENT_PORT)).isTrue();
    }
    if (!offer || v.isPresent()) {
      assertThat(checker.snapshot()).isEqualTo(before);
    }
    return v.isEmpty();
  }

  /** Breaks one switch's next state at random; the kind of break. */
  static String mutate(
      Random r,
      Topology t,
      long dpid,
      Map<Long, List<FlowEntry>> flows,
      Map<Long, List<GroupEntry>> groups) {
    List<FlowEntry> fs = new ArrayList<>(flows.get(dpid));
    List<GroupEntry> gs = new ArrayList<>(groups.get(dpid));
    List<Long> ports = new ArrayList<>(t.ports(dpid));
    String kind;
    switch (r.nextInt(3)) {
      case 0 -> {
        fs.removeIf(f -> f.tableId() == 0);
        kind = "no table-0 entry";
      }
      case 1 -> {
        if (gs.isEmpty()) {
          return "none";
        }
        int i = r.nextInt(gs.size());
        GroupEntry g = gs.get(i);
        List<Bucket> b = new ArrayList<>(g.buckets());
        ports.add(OfPort.IN_PORT);
        b.add(Bucket.of(Action.output(ports.get(r.nextInt(ports.size())))));
        gs.set(i, new GroupEntry(g.groupId(), g.type(), b));
        kind = "bucket to a random port";
      }
      default -> {
        List<Integer> leaves = new ArrayList<>();
        for (int i = 0; i < fs.size(); i++) {
          if (!fs.get(i).allActions().isEmpty()) {
            leaves.add(i);
          }
        }
        if (leaves.isEmpty() || gs.isEmpty()) {
          return "none";
        }
        int i = leaves.get(r.nextInt(leaves.size()));
        FlowEntry f = fs.get(i);
        long other = gs.get(r.nextInt(gs.size())).groupId();
        fs.set(
            i,
            FlowEntry.builder()
                .table(f.tableId())
                .priority(f.priority())
                .cookie(f.cookie())
                .match(f.match())
                .apply(Action.group(other))
                .build());
        kind = "leaf to another group";
      }
    }
    flows.put(dpid, fs);
    groups.put(dpid, gs);
    return kind;
  }
}
