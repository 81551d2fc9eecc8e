package org.netpubsub.network.pleroma;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.content.index.Dz;

/**
 * One switch's content flows, kept incrementally (PLEROMA §III-B b–c). The configurator states
 * requirements "events in dz leave by egress e" (counted: several publisher–subscriber paths may
 * need the same one); the table holds, for each required dz, the union of the egresses required for
 * it and for every coarser dz, and drops a flow that would send exactly where the next coarser flow
 * already sends. A switch applies the longest matching dz (priority by dz length), so an event
 * leaves by exactly the egresses required for the cells that contain it.
 *
 * <p>Adding a requirement recomputes only the dz and its finer flows; this yields the five cases of
 * {@code flowAddition} (reported as {@link FlowAdditionCase}s), and removing one yields Figure 5's
 * deletions and downgrades, leaving every other requirement served.
 */
public final class ContentTable {
  private final Map<Dz, Map<EventEgress, Integer>> required = new HashMap<>();
  private final NavigableSet<Dz> requiredOrder = new TreeSet<>();
  private final TreeMap<Dz, SortedSet<EventEgress>> flows = new TreeMap<>();

  /** The outcome of an addition: the flow changes and the covering cases met. */
  public record Addition(List<TableChange> changes, Set<FlowAdditionCase> cases) {}

  /** Requires that events in {@code dz} leave by {@code egress}. */
  public Addition add(Dz dz, EventEgress egress) {
    Map<EventEgress, Integer> counts = required.computeIfAbsent(dz, d -> new TreeMap<>());
    if (counts.merge(egress, 1, Integer::sum) > 1) {
      // Already required: another path needs the same; the flows stay as they are.
      return new Addition(List.of(), EnumSet.of(FlowAdditionCase.COVERED_BY_EXISTING));
    }
    requiredOrder.add(dz);
    List<TableChange> changes = recompute(dz, egress);
    return new Addition(changes, classify(dz, egress, changes));
  }

  /**
   * Withdraws one {@link #add} of the same requirement. IllegalArgumentException if it was not
   * required.
   */
  public List<TableChange> remove(Dz dz, EventEgress egress) {
    Map<EventEgress, Integer> counts = required.get(dz);
    if (counts == null || !counts.containsKey(egress)) {
      throw new IllegalArgumentException("not required: " + dz + " → " + egress);
    }
    if (counts.merge(egress, -1, Integer::sum) > 0) {
      return List.of(); // still required by another path
    }
    counts.remove(egress);
    if (counts.isEmpty()) {
      required.remove(dz);
      requiredOrder.remove(dz);
    }
    return recompute(dz, egress);
  }

  /** The flows: dz → egresses, in dz order (a coarser dz before its finer ones). */
  public SortedMap<Dz, SortedSet<EventEgress>> flows() {
    return Collections.unmodifiableSortedMap(flows);
  }

  public int size() {
    return flows.size();
  }

  public boolean isEmpty() {
    return flows.isEmpty();
  }

  /** Where an event with this (full-length) dz leaves: the longest matching flow's egresses. */
  public SortedSet<EventEgress> lookup(Dz event) {
    return lookup(flows, event);
  }

  /** The same for any content table (dz → egresses): what a switch holding it does. */
  public static SortedSet<EventEgress> lookup(Map<Dz, SortedSet<EventEgress>> flows, Dz event) {
    for (int n = event.length(); n >= 0; n--) {
      SortedSet<EventEgress> out = flows.get(event.prefix(n));
      if (out != null) {
        return out;
      }
    }
    return Collections.emptySortedSet();
  }

  /** The required egresses of exactly this dz (with multiplicity ignored). */
  public Set<EventEgress> requiredAt(Dz dz) {
    Map<EventEgress, Integer> counts = required.get(dz);
    return counts == null ? Set.of() : Set.copyOf(counts.keySet());
  }

  // ---- the incremental step ----

  /**
   * Brings the flows of {@code dz} and every finer required dz in line with the requirements. The
   * finer dzs come in dz order (a prefix before its extensions), so a stack of the required dzs
   * seen so far gives each one's next coarser required dz without searching its prefixes.
   *
   * <p>Only {@code egress} changed at {@code dz}. A finer dz that requires it itself keeps its full
   * egress set either way, so the flows beneath it cannot change: the walk skips them (only that
   * dz's own flow may flip between redundant and not). Upper switches, where many subscriptions
   * share an egress, save most of the walk.
   */
  private List<TableChange> recompute(Dz dz, EventEgress egress) {
    List<TableChange> changes = new ArrayList<>();
    ArrayDeque<Dz> coarser = new ArrayDeque<>(); // required dzs covering the current one
    Map<Dz, SortedSet<EventEgress>> full = new HashMap<>();
    Dz outer = coarserRequired(dz);
    if (outer != null) {
      coarser.push(outer);
      full.put(outer, fullEgresses(outer));
    }
    change(dz, coarser, full, changes);
    Dz unchangedBelow = null;
    for (Dz d : requiredOrder.tailSet(dz, false)) {
      if (!dz.covers(d)) {
        break; // a prefix orders before its extensions: the finer dzs are contiguous
      }
      if (unchangedBelow != null && unchangedBelow.covers(d)) {
        continue;
      }
      change(d, coarser, full, changes);
      unchangedBelow = required.get(d).containsKey(egress) ? d : null;
    }
    return changes;
  }

  /** Sets d's flow to what it should be: its full egress set, unless its parent's is the same. */
  private void change(
      Dz d,
      ArrayDeque<Dz> coarser,
      Map<Dz, SortedSet<EventEgress>> full,
      List<TableChange> changes) {
    while (!coarser.isEmpty() && !coarser.peek().covers(d)) {
      coarser.pop();
    }
    Map<EventEgress, Integer> mine = required.get(d);
    SortedSet<EventEgress> want = Collections.emptySortedSet();
    if (mine != null) {
      SortedSet<EventEgress> parent = coarser.isEmpty() ? null : full.get(coarser.peek());
      SortedSet<EventEgress> all;
      if (parent != null && parent.containsAll(mine.keySet())) {
        all = parent; // the common case deep in a table: share, never copy (sets stay unmodified)
      } else {
        all = parent == null ? new TreeSet<>() : new TreeSet<>(parent);
        all.addAll(mine.keySet());
      }
      full.put(d, all);
      coarser.push(d);
      // redundant when the coarser flow already sends the same way
      want = all.equals(parent) ? Collections.emptySortedSet() : all;
    }
    SortedSet<EventEgress> have = flows.getOrDefault(d, Collections.emptySortedSet());
    if (!want.equals(have)) {
      changes.add(new TableChange(d, have, want));
      if (want.isEmpty()) {
        flows.remove(d);
      } else {
        flows.put(d, want);
      }
    }
  }

  /** The union of the egresses required for d and every coarser required dz. */
  private SortedSet<EventEgress> fullEgresses(Dz d) {
    Dz parent = coarserRequired(d);
    SortedSet<EventEgress> out = parent == null ? new TreeSet<>() : fullEgresses(parent);
    out.addAll(required.get(d).keySet());
    return out;
  }

  /** The longest required proper prefix of d, or null. */
  private Dz coarserRequired(Dz d) {
    for (int n = d.length() - 1; n >= 0; n--) {
      Dz p = d.prefix(n);
      if (required.containsKey(p)) {
        return p;
      }
    }
    return null;
  }

  /** Names the paper's cases an addition of (dz, egress) met, from the changes it made. */
  private static Set<FlowAdditionCase> classify(
      Dz dz, EventEgress egress, List<TableChange> changes) {
    Set<FlowAdditionCase> cases = EnumSet.noneOf(FlowAdditionCase.class);
    if (changes.isEmpty()) {
      cases.add(FlowAdditionCase.COVERED_BY_EXISTING);
      return cases;
    }
    for (TableChange c : changes) {
      if (c.dz().equals(dz)) {
        if (!c.isAddition()) {
          cases.add(FlowAdditionCase.SAME_DZ);
        } else if (!c.after().equals(Set.of(egress))) {
          cases.add(FlowAdditionCase.PARTIALLY_COVERED_BY_EXISTING); // inherits coarser ports
        } else if (changes.size() == 1) {
          cases.add(FlowAdditionCase.NO_OVERLAP);
        }
      } else if (c.isRemoval()) {
        cases.add(FlowAdditionCase.COVERS_EXISTING);
      } else {
        cases.add(FlowAdditionCase.PARTIALLY_COVERS_EXISTING);
      }
    }
    return cases;
  }
}
