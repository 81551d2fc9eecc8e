package org.netpubsub.network.pleroma;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
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
  private final Map<Dz, Required> required = new HashMap<>();
  private final TreeMap<Dz, Required> requiredOrder = new TreeMap<>();
  private final TreeMap<Dz, SortedSet<EventEgress>> flows = new TreeMap<>();
  // How many required dzs have each length: a coarser required dz is sought at those lengths only.
  private final int[] requiredOfLength = new int[Dz.MAX_LENGTH + 1];

  /**
   * One required dz: how many paths need each egress, and its flow (null while redundant). A dz has
   * few egresses, so they sit in two small arrays searched linearly: the configurator hands in the
   * same egress objects again, so the identity test almost always hits before any equals.
   */
  private static final class Required {
    private EventEgress[] egresses = new EventEgress[2];
    private int[] counts = new int[2];
    private int size;
    EgressSet flow;

    int indexOf(EventEgress e) {
      for (int i = 0; i < size; i++) {
        if (egresses[i] == e) {
          return i;
        }
      }
      for (int i = 0; i < size; i++) {
        if (egresses[i].equals(e)) {
          return i;
        }
      }
      return -1;
    }

    boolean requires(EventEgress e) {
      return indexOf(e) >= 0;
    }

    boolean isEmpty() {
      return size == 0;
    }

    /** Adds {@code n} to e's count; returns the count before. */
    int add(EventEgress e, int n) {
      int i = indexOf(e);
      if (i >= 0) {
        counts[i] += n;
        return counts[i] - n;
      }
      if (size == egresses.length) {
        egresses = Arrays.copyOf(egresses, size * 2);
        counts = Arrays.copyOf(counts, size * 2);
      }
      egresses[size] = e;
      counts[size++] = n;
      return 0;
    }

    /** Takes {@code n} from e's count (dropping it at zero); the count after, or -1 if short. */
    int remove(EventEgress e, int n) {
      int i = indexOf(e);
      if (i < 0 || counts[i] < n) {
        return -1;
      }
      counts[i] -= n;
      if (counts[i] > 0) {
        return counts[i];
      }
      size--;
      egresses[i] = egresses[size];
      counts[i] = counts[size];
      egresses[size] = null;
      return 0;
    }

    /** Whether every required egress is in {@code set}. */
    boolean allIn(Set<EventEgress> set) {
      for (int i = 0; i < size; i++) {
        if (!set.contains(egresses[i])) {
          return false;
        }
      }
      return true;
    }

    /** {@code set} with the required egresses added. */
    EgressSet addTo(EgressSet set) {
      return set.with(egresses, size);
    }

    Set<EventEgress> egresses() {
      return Set.of(Arrays.copyOf(egresses, size));
    }
  }

  /** The outcome of an addition: the flow changes and the covering cases met. */
  public record Addition(List<TableChange> changes, Set<FlowAdditionCase> cases) {}

  private static final Addition ALREADY_REQUIRED =
      new Addition(List.of(), Set.of(FlowAdditionCase.COVERED_BY_EXISTING));

  /** Requires that events in {@code dz} leave by {@code egress}. */
  public Addition add(Dz dz, EventEgress egress) {
    return add(dz, egress, 1);
  }

  /**
   * {@link #add} {@code times} times over (for paths that share this switch): the cases are those
   * of the first addition; the others find the requirement standing.
   */
  public Addition add(Dz dz, EventEgress egress, int times) {
    if (times < 1) {
      throw new IllegalArgumentException("times must be positive: " + times);
    }
    Required r = required.get(dz);
    if (r == null) {
      r = new Required();
      required.put(dz, r);
      requiredOrder.put(dz, r);
      requiredOfLength[dz.length()]++;
    }
    if (r.add(egress, times) > 0) {
      return ALREADY_REQUIRED; // another path needs the same; the flows stay as they are
    }
    List<TableChange> changes = recompute(dz, r, egress);
    return new Addition(changes, classify(dz, egress, changes));
  }

  /**
   * Withdraws one {@link #add} of the same requirement. IllegalArgumentException if it was not
   * required.
   */
  public List<TableChange> remove(Dz dz, EventEgress egress) {
    return remove(dz, egress, 1);
  }

  /**
   * Withdraws {@code times} additions of the same requirement at once. IllegalArgumentException,
   * changing nothing, if fewer were made.
   */
  public List<TableChange> remove(Dz dz, EventEgress egress, int times) {
    Required r = required.get(dz);
    int left = r == null || times < 1 ? -1 : r.remove(egress, times);
    if (left < 0) {
      throw new IllegalArgumentException("not required: " + dz + " → " + egress);
    }
    if (left > 0) {
      return List.of(); // still required by another path
    }
    if (r.isEmpty()) {
      required.remove(dz);
      requiredOrder.remove(dz);
      requiredOfLength[dz.length()]--;
    }
    return recompute(dz, r, egress);
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
    Required r = required.get(dz);
    return r == null ? Set.of() : r.egresses();
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
  private List<TableChange> recompute(Dz dz, Required at, EventEgress egress) {
    List<TableChange> changes = new ArrayList<>(2);
    ArrayDeque<Coarser> coarser = new ArrayDeque<>(8); // required dzs covering the current one
    Coarser outer = coarserRequired(dz);
    if (outer != null) {
      coarser.push(outer);
    }
    change(dz, at, coarser, changes);
    if (outer != null && outer.full().contains(egress)) {
      return changes; // a coarser dz sends there anyway: no finer full egress set changed
    }
    Dz unchangedBelow = null;
    for (Map.Entry<Dz, Required> f : requiredOrder.tailMap(dz, false).entrySet()) {
      Dz d = f.getKey();
      if (!dz.covers(d)) {
        break; // a prefix orders before its extensions: the finer dzs are contiguous
      }
      if (unchangedBelow != null && unchangedBelow.covers(d)) {
        continue;
      }
      change(d, f.getValue(), coarser, changes);
      unchangedBelow = f.getValue().requires(egress) ? d : null;
    }
    return changes;
  }

  /** A required dz and the egresses it sends to: its own and every coarser required dz's. */
  private record Coarser(Dz dz, EgressSet full) {}

  /** Sets d's flow to what it should be: its full egress set, unless its parent's is the same. */
  private void change(Dz d, Required r, ArrayDeque<Coarser> coarser, List<TableChange> changes) {
    while (!coarser.isEmpty() && !coarser.peek().dz().covers(d)) {
      coarser.pop();
    }
    EgressSet want = EgressSet.EMPTY;
    if (!r.isEmpty()) {
      EgressSet parent = coarser.isEmpty() ? null : coarser.peek().full();
      EgressSet all;
      if (parent != null && r.allIn(parent)) {
        all = parent; // the common case deep in a table: share, never copy (sets are immutable)
      } else {
        all = r.addTo(parent == null ? EgressSet.EMPTY : parent);
      }
      coarser.push(new Coarser(d, all));
      // redundant when the coarser flow already sends the same way
      want = all.equals(parent) ? EgressSet.EMPTY : all;
    }
    EgressSet have = r.flow == null ? EgressSet.EMPTY : r.flow;
    if (!want.equals(have)) {
      changes.add(new TableChange(d, have, want));
      if (want.isEmpty()) {
        flows.remove(d);
        r.flow = null;
      } else {
        flows.put(d, want);
        r.flow = want;
      }
    }
  }

  /**
   * The longest required proper prefix of d with its full egress set, or null. The flows give that
   * set without a union: a required dz without a flow is redundant, so it sends exactly as the
   * nearest coarser dz that has one.
   */
  private Coarser coarserRequired(Dz d) {
    Dz outer = null;
    for (int n = d.length() - 1; n >= 0; n--) {
      if (requiredOfLength[n] == 0) {
        continue;
      }
      Dz p = d.prefix(n);
      Required r = required.get(p);
      if (r != null) {
        outer = outer == null ? p : outer;
        if (r.flow != null) {
          return new Coarser(outer, r.flow);
        }
      }
    }
    if (outer != null) {
      throw new IllegalStateException("required " + outer + " has no coarser flow");
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
