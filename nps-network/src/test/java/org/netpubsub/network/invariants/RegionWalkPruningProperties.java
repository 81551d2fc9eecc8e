package org.netpubsub.network.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.statistics.Statistics;
import org.netpubsub.content.address.Ipv6Address;
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
 * The region walk's shortcuts ({@link RegionWalk}: starts only at the changed switches, an
 * unchanged neighbour followed only into them, a copy arriving at a changed switch covered by that
 * port's start plus a table-0 lookup) against the brute-force twin ({@link NaiveFlowWalk}, every
 * address of the universe from every port of every switch), on Camus pipelines (table 0 by in_port
 * writing metadata, field tables chained by goto and metadata, groups). One to three switches are
 * broken at once in the ways the shortcuts could miss: table 0's entry for copies from below gone
 * (seen only on a copy that came by a link, from an unchanged neighbour when one switch is broken),
 * an up port's entry gone (the copies from above lose their metadata), the entry narrowed to part
 * of the space (a black hole for part of a region), every group sending a copy back (loops between
 * changed switches, whose starts are being walked when the copy comes round), a bucket to a random
 * port. The check finds a violation exactly when the twin does, and the class it names does break.
 */
class RegionWalkPruningProperties {
  private static final MaskedIpv6 SPACE = QueryAddressLayout.prefix();

  @Property(tries = 30)
  void theShortcutsAgreeWithTheBruteForceWalk(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 2) int shape, @ForAll boolean mr) {
    agree(seed, shape, mr, false);
  }

  /**
   * As {@link #theShortcutsAgreeWithTheBruteForceWalk}, one switch that the batch does not change
   * broken beforehand (taken unchecked): an unchanged switch's cut is made once for the whole
   * region and an arriving part walks the pieces it meets narrowed to what arrives (stop 43), so a
   * piece that loops or ends below for addresses the changed switches never send there must not be
   * reported (the twin does not: no path through a changed switch), while what the arriving
   * addresses meet still is. Walking the whole piece instead fails this property.
   */
  @Property(tries = 20)
  void aSwitchBrokenBeforeTheBatchIsJudgedByWhatArrives(
      @ForAll long seed, @ForAll @IntRange(min = 0, max = 2) int shape, @ForAll boolean mr) {
    agree(seed, shape, mr, true);
  }

  private static void agree(long seed, int shape, boolean mr, boolean brokenBefore) {
    CamusBed bed = new CamusBed(shape, seed, mr, 4);
    Topology t = bed.topology;
    CamusTables c = bed.camus;
    FlowInvariants checker = bed.checker;
    Map<Long, List<FlowEntry>> flows = bed.flows;
    Map<Long, List<GroupEntry>> groups = bed.groups;
    Random r = new Random(seed);
    List<Long> dpids = new ArrayList<>(t.switches());
    Set<Long> broken = new HashSet<>();
    int n = 1 + r.nextInt(3);
    long first = dpids.get(r.nextInt(dpids.size()));
    broken.add(first);
    while (broken.size() < n) {
      // mostly next to one broken already: copies sent back then meet another changed switch
      List<Long> near = new ArrayList<>(t.neighbours(first));
      broken.add(
          r.nextBoolean() ? near.get(r.nextInt(near.size())) : dpids.get(r.nextInt(dpids.size())));
    }
    List<String> kinds = new ArrayList<>();
    if (brokenBefore) {
      List<Long> others = dpids.stream().filter(d -> !broken.contains(d)).toList();
      if (!others.isEmpty()) {
        long before = others.get(r.nextInt(others.size()));
        kinds.add("before: " + break_(r, t, c, before, flows, groups));
        checker.put(before, flows.get(before), groups.get(before));
      }
    }
    for (long dpid : broken) {
      kinds.add(break_(r, t, c, dpid, flows, groups));
    }
    Statistics.label("breaks").collect(String.join(", ", kinds.stream().sorted().toList()));
    Map<Long, FlowInvariants.Change> changes = new TreeMap<>();
    for (long dpid : broken) {
      changes.put(dpid, checker.changeTo(dpid, flows.get(dpid), groups.get(dpid)));
    }
    Optional<Violation> v = checker.checkRegion(changes, SPACE);
    // what the batch changes: a break that found nothing to break ("none") leaves its switch as it
    // was, and a violation on a path through it alone is the unchecked break's, not the batch's
    Set<Long> changed = new HashSet<>();
    changes.forEach(
        (dpid, change) -> {
          if (!change.isEmpty()) {
            changed.add(dpid);
          }
        });
    NaiveFlowWalk twin = new NaiveFlowWalk(t, flows, groups, true);
    // a narrowed table 0 splits the stocks no subscription names: the universe takes both sides
    List<MaskedIpv6> cuts =
        flows.values().stream()
            .flatMap(List::stream)
            .filter(f -> f.tableId() == 0 && f.match().ipv6Dst() != null)
            .map(f -> f.match().ipv6Dst())
            .filter(m -> !m.equals(SPACE))
            .distinct()
            .toList();
    boolean violated = twin.violated(c.universe(cuts), changed, CamusTables.EVENT_PORT);
    Statistics.label("verdict").collect(violated ? "violation" : "none");
    assertThat(v.isPresent()).as("%s after %s on %s", v, kinds, changed).isEqualTo(violated);
    if (v.isPresent()) {
      assertThat(twin.violated(v.get().packetClass(), changed, CamusTables.EVENT_PORT)).isTrue();
    }
  }

  /**
   * A failure of the property (seed 1971169143454480651): switch 2's table 0 narrowed to ff0e::/17,
   * and switch 1 sends the stocks no subscription names back and down to it, so ff0e:8000:: (a
   * stock from byte 0x80) misses table 0 there after the link: a black hole the check found and the
   * twin missed, its universe's only unnamed stock (0) being inside the cut.
   */
  @Example
  void aNarrowedTable0CuttingTheUnnamedStocksIsABlackHoleForBoth() {
    agree(-103, 0, false, false);
  }

  /**
   * A failure of {@link #aSwitchBrokenBeforeTheBatchIsJudgedByWhatArrives} with a deliberate bug
   * (stop 43: an unchanged switch's piece walked whole, not narrowed to what arrives): the check
   * refused the batch naming a class that breaks on no path through a changed switch.
   */
  @Example
  void aPieceWiderThanWhatArrivesIsNotWalkedWhole() {
    agree(-9973, 0, true, true);
  }

  /**
   * A failure of {@link #aSwitchBrokenBeforeTheBatchIsJudgedByWhatArrives} (seed -121393, shape 0,
   * MR and TR alike), in the property, not the check: switch 1's break found nothing to break
   * ("none"), so the batch changes nothing, and the copies switch 1 sends down into the switch
   * whose table 0 was narrowed beforehand meet that black hole. The twin, told that switch 1
   * changed, counted it; the check rightly walks nothing (the batch touches no region), as the
   * contract says a violation counts only on a path through a switch the batch changes. The twin is
   * now told the switches whose change is not empty.
   */
  @Example
  void aBreakThatChangesNothingIsNoChangeForTheTwinEither() {
    agree(-121393, 0, true, true);
    agree(-121393, 0, false, true);
  }

  /** Breaks one switch's tables; what was done. */
  private static String break_(
      Random r,
      Topology t,
      CamusTables c,
      long dpid,
      Map<Long, List<FlowEntry>> flows,
      Map<Long, List<GroupEntry>> groups) {
    List<FlowEntry> fs = new ArrayList<>(flows.get(dpid));
    List<GroupEntry> gs = new ArrayList<>(groups.get(dpid));
    String kind;
    switch (r.nextInt(5)) {
      case 0 -> {
        fs.removeIf(f -> f.tableId() == 0 && f.match().inPort() == null);
        kind = "table 0 from below gone";
      }
      case 1 -> {
        List<FlowEntry> ups =
            fs.stream().filter(f -> f.tableId() == 0 && f.match().inPort() != null).toList();
        if (ups.isEmpty()) {
          return "none";
        }
        fs.remove(ups.get(r.nextInt(ups.size())));
        kind = "an up port's table-0 entry gone";
      }
      case 2 -> {
        List<Ipv6Address> u = c.universe();
        Ipv6Address a = u.get(r.nextInt(u.size()));
        MaskedIpv6 part = MaskedIpv6.prefix(a, 17 + r.nextInt(24));
        List<FlowEntry> narrowed = new ArrayList<>();
        for (FlowEntry f : fs) {
          narrowed.add(
              f.tableId() == 0
                  ? f.toBuilder().match(f.match().toBuilder().ipv6Dst(part).build()).build()
                  : f);
        }
        fs = narrowed;
        kind = "table 0 narrowed";
      }
      case 3 -> {
        List<GroupEntry> back = new ArrayList<>();
        for (GroupEntry g : gs) {
          List<Bucket> b = new ArrayList<>(g.buckets());
          if (g.type() == GroupType.ALL) {
            b.add(Bucket.of(Action.output(OfPort.IN_PORT)));
          }
          back.add(new GroupEntry(g.groupId(), g.type(), b));
        }
        gs = back;
        kind = "copies sent back";
      }
      default -> {
        if (gs.isEmpty()) {
          return "none";
        }
        List<Long> ports = new ArrayList<>(t.ports(dpid));
        int i = r.nextInt(gs.size());
        GroupEntry g = gs.get(i);
        List<Bucket> b = new ArrayList<>(g.buckets());
        b.add(Bucket.of(Action.output(ports.get(r.nextInt(ports.size())))));
        gs.set(i, new GroupEntry(g.groupId(), g.type(), b));
        kind = "bucket to a random port";
      }
    }
    flows.put(dpid, fs);
    groups.put(dpid, gs);
    return kind;
  }
}
