package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.Dz;

/**
 * The incremental table against its naive twin under random additions and removals, and the
 * forwarding it implies against the requirements themselves.
 */
class ContentTableProperties {
  static final int DEPTH = 5;

  record Op(boolean add, Dz dz, EventEgress egress) {}

  @Property(tries = 400)
  void incrementalEqualsRecomputedAfterEveryStep(@ForAll("ops") List<Op> ops) {
    ContentTable table = new ContentTable();
    Map<Dz, List<EventEgress>> shadow = new HashMap<>();
    Map<Dz, SortedSet<EventEgress>> replayed = new TreeMap<>(); // the reported changes, applied
    for (Op op : ops) {
      List<EventEgress> at = shadow.computeIfAbsent(op.dz(), d -> new ArrayList<>());
      List<TableChange> changes = List.of();
      if (op.add()) {
        changes = table.add(op.dz(), op.egress()).changes();
        at.add(op.egress());
      } else if (at.remove(op.egress())) {
        changes = table.remove(op.dz(), op.egress());
      }
      if (at.isEmpty()) {
        shadow.remove(op.dz());
      }
      assertThat(table.flows()).isEqualTo(NaiveContentTable.flows(shadow));
      for (TableChange c : changes) {
        assertThat(replayed.getOrDefault(c.dz(), new TreeSet<>())).isEqualTo(c.before());
        if (c.isRemoval()) {
          replayed.remove(c.dz());
        } else {
          replayed.put(c.dz(), c.after());
        }
      }
      assertThat(replayed).isEqualTo(table.flows());
    }
  }

  @Property(tries = 400)
  void everyEventLeavesByExactlyTheEgressesRequiredForItsCells(@ForAll("ops") List<Op> ops) {
    ContentTable table = new ContentTable();
    Map<Dz, List<EventEgress>> shadow = new HashMap<>();
    for (Op op : ops) {
      List<EventEgress> at = shadow.computeIfAbsent(op.dz(), d -> new ArrayList<>());
      if (op.add()) {
        table.add(op.dz(), op.egress());
        at.add(op.egress());
      } else if (at.remove(op.egress())) {
        table.remove(op.dz(), op.egress());
      }
    }
    for (int x = 0; x < 1 << DEPTH; x++) {
      Dz event = dz(x, DEPTH);
      SortedSet<EventEgress> want = new TreeSet<>();
      shadow.forEach(
          (d, es) -> {
            if (d.covers(event)) {
              want.addAll(es);
            }
          });
      assertThat(table.lookup(event)).as("event %s", event).isEqualTo(want);
    }
    // and no flow merely repeats the next coarser flow
    table
        .flows()
        .forEach(
            (d, es) -> {
              for (int n = d.length() - 1; n >= 0; n--) {
                SortedSet<EventEgress> coarser = table.flows().get(d.prefix(n));
                if (coarser != null) {
                  assertThat(es).as("%s repeats %s", d, d.prefix(n)).isNotEqualTo(coarser);
                  break;
                }
              }
            });
  }

  @Property(tries = 200)
  void withdrawingEverythingLeavesNoFlow(@ForAll("ops") List<Op> ops) {
    ContentTable table = new ContentTable();
    List<Op> added = new ArrayList<>();
    for (Op op : ops) {
      table.add(op.dz(), op.egress());
      added.add(op);
    }
    java.util.Collections.reverse(added);
    for (Op op : added.subList(0, added.size() / 2)) {
      table.remove(op.dz(), op.egress());
    }
    for (Op op : added.subList(added.size() / 2, added.size())) {
      table.remove(op.dz(), op.egress());
    }
    assertThat(table.isEmpty()).isTrue();
    assertThat(table.nodes()).as("nodes left in the trie").isZero();
  }

  @Provide
  Arbitrary<List<Op>> ops() {
    Arbitrary<Dz> dzs =
        Arbitraries.integers()
            .between(0, DEPTH)
            .flatMap(n -> Arbitraries.integers().between(0, (1 << n) - 1).map(v -> dz(v, n)));
    Arbitrary<EventEgress> egresses =
        Arbitraries.integers()
            .between(1, 5)
            .map(
                p ->
                    p < 4
                        ? EventEgress.towardsSwitch(p)
                        : EventEgress.toSubscriber(
                            4, new LastHop(new Ipv6Address(1, p), 0x0200_0000_0001L, 7000 + p)));
    return Combinators.combine(Arbitraries.of(true, true, false), dzs, egresses)
        .as(Op::new)
        .list()
        .ofMaxSize(40);
  }

  static Dz dz(int value, int length) {
    Dz d = Dz.EMPTY;
    for (int i = length - 1; i >= 0; i--) {
      d = d.append((value >>> i) & 1);
    }
    return d;
  }
}
