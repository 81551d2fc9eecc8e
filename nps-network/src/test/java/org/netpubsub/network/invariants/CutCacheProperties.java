package org.netpubsub.network.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
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
import org.netpubsub.network.openflow.GroupType;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.topology.Topology;

/**
 * The cuts the Camus check keeps across checks ({@link Cuts}) against checks without them: a long
 * history of batches on one checker — random updates, and each update's mutants (a switch's table-0
 * entries gone, a group bucket to a random port, a leaf flow to another group, every group sending
 * a copy back: groups changed alone), offered (taken when accepted) or only checked, in random
 * order — and at every step the verdict equals that of a new checker holding the same state (no
 * kept cuts) and that of the brute-force twin ({@link NaiveFlowWalk}); a refused or only checked
 * batch leaves the index and the kept cuts exactly as they were.
 */
class CutCacheProperties {
  private static final MaskedIpv6 SPACE = QueryAddressLayout.prefix();

  @Property(tries = 12)
  void keptCutsGiveTheVerdictsOfNewOnes(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 2) int shape, @ForAll boolean mr) {
    CamusBed bed = new CamusBed(shape, seed, mr, 3);
    Topology t = bed.topology;
    CamusTables c = bed.camus;
    Map<Long, List<FlowEntry>> flows = bed.flows;
    Map<Long, List<GroupEntry>> groups = bed.groups;
    Random r = new Random(seed);
    List<Long> dpids = new ArrayList<>(t.switches());
    for (int step = 0; step < 10; step++) {
      RoutingUpdate u = c.randomUpdate();
      Map<Long, List<FlowEntry>> nextFlows = new HashMap<>(flows);
      Map<Long, List<GroupEntry>> nextGroups = new HashMap<>(groups);
      for (long dpid : u.diffs().keySet()) {
        nextFlows.put(dpid, c.flows(dpid));
        nextGroups.put(dpid, c.groups(dpid));
      }
      Set<Long> changed = new HashSet<>(u.diffs().keySet());
      int mutant = r.nextInt(4);
      if (mutant > 0) {
        // a mutant in place of the update (refused, or taken if it breaks nothing)
        long victim = dpids.get(r.nextInt(dpids.size()));
        Statistics.label("mutant")
            .collect(
                mutant == 1
                    ? sendBack(victim, nextGroups)
                    : CamusInvariantsProperties.mutate(r, t, victim, nextFlows, nextGroups));
        changed.add(victim);
      }
      boolean offer = r.nextInt(4) > 0;
      boolean taken = agree(bed, flows, groups, nextFlows, nextGroups, changed, offer);
      Statistics.label("batch").collect(offer ? (taken ? "taken" : "refused") : "checked");
      if (taken) {
        flows.putAll(nextFlows);
        groups.putAll(nextGroups);
      }
    }
    Statistics.label("cuts kept at the end")
        .collect(bed.checker.keptCuts().isEmpty() ? "none" : "some");
  }

  /**
   * Every all-group of the switch also sends a copy back out of its in-port: a change of groups
   * alone (its entries stay), which a kept cut must not miss.
   */
  private static String sendBack(long dpid, Map<Long, List<GroupEntry>> groups) {
    List<GroupEntry> back = new ArrayList<>();
    for (GroupEntry g : groups.get(dpid)) {
      List<Bucket> b = new ArrayList<>(g.buckets());
      if (g.type() == GroupType.ALL) {
        b.add(Bucket.of(Action.output(OfPort.IN_PORT)));
      }
      back.add(new GroupEntry(g.groupId(), g.type(), b));
    }
    groups.put(dpid, back);
    return "copies sent back";
  }

  /** Offers or checks the batch; asserts the verdicts agree; whether it was taken. */
  private static boolean agree(
      CamusBed bed,
      Map<Long, List<FlowEntry>> flows,
      Map<Long, List<GroupEntry>> groups,
      Map<Long, List<FlowEntry>> nextFlows,
      Map<Long, List<GroupEntry>> nextGroups,
      Set<Long> changed,
      boolean offer) {
    FlowInvariants checker = bed.checker;
    FlowInvariants fresh = new FlowInvariants(bed.topology, CamusTables.EVENT_PORT);
    flows.forEach((dpid, f) -> fresh.put(dpid, f, groups.get(dpid)));
    Map<Long, FlowInvariants.Change> changes = new TreeMap<>();
    Map<Long, FlowInvariants.Change> same = new TreeMap<>();
    for (long dpid : changed) {
      changes.put(dpid, checker.changeTo(dpid, nextFlows.get(dpid), nextGroups.get(dpid)));
      same.put(dpid, fresh.changeTo(dpid, nextFlows.get(dpid), nextGroups.get(dpid)));
    }
    var index = checker.snapshot();
    var cuts = checker.keptCuts();
    Optional<Violation> v =
        offer ? checker.offerRegion(changes, SPACE) : checker.checkRegion(changes, SPACE);
    Optional<Violation> w = fresh.checkRegion(same, SPACE);
    assertThat(v.isPresent()).as("kept cuts %s, new ones %s", v, w).isEqualTo(w.isPresent());
    NaiveFlowWalk twin = new NaiveFlowWalk(bed.topology, nextFlows, nextGroups, true);
    boolean broken = twin.violated(bed.camus.universe(), changed, CamusTables.EVENT_PORT);
    assertThat(v.isPresent()).as("%s against the twin", v).isEqualTo(broken);
    if (!offer || v.isPresent()) {
      assertThat(checker.snapshot()).isEqualTo(index);
      assertThat(checker.keptCuts()).isEqualTo(cuts);
    }
    return offer && v.isEmpty();
  }
}
