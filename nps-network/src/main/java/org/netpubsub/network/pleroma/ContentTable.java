package org.netpubsub.network.pleroma;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
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
  // The required dzs as a path-compressed binary trie (a node per required dz, plus one where two
  // branch apart): walking down to a dz meets its coarser required dzs on the way, and a node's
  // subtree holds its finer ones in dz order. Compression matters: every dz of a partition's
  // table shares the partition's prefix, which would otherwise be a chain of nodes per table.
  private final Node root = new Node(Dz.EMPTY);
  private final TreeMap<Dz, SortedSet<EventEgress>> flows = new TreeMap<>();

  /**
   * A required dz, or where required dzs branch apart: how many paths need each of its egresses
   * (none: a branch only), and its flow (null while redundant or not required). A dz has few
   * egresses, so they sit in two small arrays searched linearly: the configurator hands in the same
   * egress objects again, so the identity test almost always hits before any equals.
   */
  private static final class Node {
    final Dz dz;
    // dz's bits inline: a walk down the trie reads nodes only, not one Dz object per level (tables
    // outgrow the caches, so each object read on the way is a likely miss)
    final long hi;
    final long lo;
    final int length;
    Node parent; // null at the root; set by adopt
    Node zero; // children: their dz extends this one by the bit, and perhaps more
    Node one;
    private EventEgress[] egresses; // null until first required
    private int[] counts;
    private int size;
    EgressSet flow;

    Node(Dz dz) {
      this.dz = dz;
      this.hi = dz.hi();
      this.lo = dz.lo();
      this.length = dz.length();
    }

    Node child(int bit) {
      return bit == 0 ? zero : one;
    }

    /** Makes {@code c} the child on {@code bit}'s side. */
    void adopt(int bit, Node c) {
      if (bit == 0) {
        zero = c;
      } else {
        one = c;
      }
      c.parent = this;
    }

    /** The child under which {@code d} (longer than this node's dz) lies, or null. */
    Node towards(Dz d) {
      Node c = child(d.bit(length));
      return c != null && c.covers(d) ? c : null;
    }

    /** {@code dz.covers(d)} from the inline bits. */
    boolean covers(Dz d) {
      return length <= d.length()
          && ((hi ^ d.hi()) & Dz.maskHi(length)) == 0
          && ((lo ^ d.lo()) & Dz.maskLo(length)) == 0;
    }

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

    boolean isRequired() {
      return size > 0;
    }

    /** Adds {@code n} to e's count; returns the count before. */
    int add(EventEgress e, int n) {
      int i = indexOf(e);
      if (i >= 0) {
        counts[i] += n;
        return counts[i] - n;
      }
      if (egresses == null) {
        egresses = new EventEgress[2];
        counts = new int[2];
      } else if (size == egresses.length) {
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
      return size == 0 ? Set.of() : Set.of(Arrays.copyOf(egresses, size));
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
    // Walk down to dz, making its node if needed and noting what its coarser dzs send.
    Node n = root;
    EgressSet outer = null; // the full egress set of the longest required proper prefix
    while (n.length < dz.length()) {
      outer = fullAfter(n, outer);
      Node c = n.towards(dz);
      if (c == null) {
        n = insertUnder(n, dz);
        break;
      }
      n = c;
    }
    if (n.add(egress, times) > 0) {
      return ALREADY_REQUIRED; // another path needs the same; the flows stay as they are
    }
    List<TableChange> changes = recompute(n, outer, egress);
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
    Node n = root;
    EgressSet outer = null;
    while (n != null && n.length < dz.length()) {
      outer = fullAfter(n, outer);
      n = n.towards(dz);
    }
    int left = n == null || times < 1 ? -1 : n.remove(egress, times);
    if (left < 0) {
      throw new IllegalArgumentException("not required: " + dz + " → " + egress);
    }
    if (left > 0) {
      return List.of(); // still required by another path
    }
    List<TableChange> changes = recompute(n, outer, egress);
    prune(n);
    return changes;
  }

  /**
   * Puts a node for {@code d} under {@code n}, where no child leads to d: as a new leaf, between n
   * and a child d covers, or beside a child under a new branch node where the two part.
   */
  private static Node insertUnder(Node n, Dz d) {
    int bit = d.bit(n.dz.length());
    Node c = n.child(bit);
    Node leaf = new Node(d);
    if (c == null) {
      n.adopt(bit, leaf);
      return leaf;
    }
    int common = n.dz.length() + 1; // c and d agree on the bit that led to c
    while (common < d.length() && common < c.dz.length() && d.bit(common) == c.dz.bit(common)) {
      common++;
    }
    if (common == d.length()) {
      leaf.adopt(c.dz.bit(common), c); // d covers c
      n.adopt(bit, leaf);
      return leaf;
    }
    Node branch = new Node(d.prefix(common));
    branch.adopt(c.dz.bit(common), c);
    branch.adopt(d.bit(common), leaf);
    n.adopt(bit, branch);
    return leaf;
  }

  /** Drops n if no longer required and splices out a branch left with one child. */
  private void prune(Node n) {
    while (n != root && !n.isRequired()) {
      Node p = n.parent;
      Node only = n.zero == null ? n.one : n.one == null ? n.zero : null;
      if (n.zero != null && n.one != null) {
        return; // still a branch
      }
      int side = p.zero == n ? 0 : 1;
      if (only == null) {
        if (side == 0) {
          p.zero = null;
        } else {
          p.one = null;
        }
      } else {
        p.adopt(side, only);
        return; // p keeps as many children as before
      }
      n = p; // p lost a child: it may be a branch no more
    }
  }

  /**
   * What a dz below {@code n} inherits: n's full egress set if n is required, else {@code outer}
   * (the full set above n). The flows give that set without a union: a required dz without a flow
   * is redundant, so it sends exactly as its nearest coarser required dz.
   */
  private static EgressSet fullAfter(Node n, EgressSet outer) {
    if (n.flow != null) {
      return n.flow;
    }
    if (n.isRequired() && outer == null) {
      throw new IllegalStateException("required " + n.dz + " has no coarser flow");
    }
    return outer;
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

  /** The trie's nodes besides the root (for tests: withdrawn dzs leave none behind). */
  int nodes() {
    return count(root) - 1;
  }

  private static int count(Node n) {
    return n == null ? 0 : 1 + count(n.zero) + count(n.one);
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
    Node n = root;
    while (n != null && n.length < dz.length()) {
      n = n.towards(dz);
    }
    return n == null || !n.dz.equals(dz) ? Set.of() : n.egresses();
  }

  // ---- the incremental step ----

  /**
   * Brings the flows of {@code at} and every finer required dz in line with the requirements;
   * {@code outer} is the full egress set of at's nearest coarser required dz (null: none). The walk
   * down at's subtree visits the finer dzs in dz order (a prefix before its extensions), carrying
   * each one's coarser full set.
   *
   * <p>Only {@code egress} changed at at's dz. A finer dz that requires it itself keeps its full
   * egress set either way, so the flows beneath it cannot change: the walk skips them (only that
   * dz's own flow may flip between redundant and not). Upper switches, where many subscriptions
   * share an egress, save most of the walk.
   */
  private List<TableChange> recompute(Node at, EgressSet outer, EventEgress egress) {
    List<TableChange> changes = new ArrayList<>(2);
    EgressSet full = change(at, outer, changes);
    if (outer != null && outer.contains(egress)) {
      return changes; // a coarser dz sends there anyway: no finer full egress set changed
    }
    changeBelow(at, full, egress, changes);
    return changes;
  }

  /**
   * {@link #change} for the required dzs under {@code n}, whose coarser full set is {@code full}.
   */
  private void changeBelow(Node n, EgressSet full, EventEgress egress, List<TableChange> changes) {
    if (n.zero != null) {
      changeUnder(n.zero, full, egress, changes);
    }
    if (n.one != null) {
      changeUnder(n.one, full, egress, changes);
    }
  }

  /** {@link #change} for n, if required, and the required dzs under it. */
  private void changeUnder(Node n, EgressSet full, EventEgress egress, List<TableChange> changes) {
    if (!n.isRequired()) {
      changeBelow(n, full, egress, changes);
    } else {
      EgressSet below = change(n, full, changes);
      if (!n.requires(egress)) {
        changeBelow(n, below, egress, changes);
      }
    }
  }

  /**
   * Sets n's flow to what it should be: its full egress set, unless its parent's ({@code outer}) is
   * the same. Returns what finer dzs inherit: n's full set, or {@code outer} if n is not required.
   */
  private EgressSet change(Node n, EgressSet outer, List<TableChange> changes) {
    EgressSet want = EgressSet.EMPTY;
    EgressSet all = outer;
    if (n.isRequired()) {
      if (outer != null && n.allIn(outer)) {
        all = outer; // the common case deep in a table: share, never copy (sets are immutable)
      } else {
        all = n.addTo(outer == null ? EgressSet.EMPTY : outer);
      }
      // redundant when the coarser flow already sends the same way
      want = all.equals(outer) ? EgressSet.EMPTY : all;
    }
    EgressSet have = n.flow == null ? EgressSet.EMPTY : n.flow;
    if (!want.equals(have)) {
      changes.add(new TableChange(n.dz, have, want));
      if (want.isEmpty()) {
        flows.remove(n.dz);
        n.flow = null;
      } else {
        flows.put(n.dz, want);
        n.flow = want;
      }
    }
    return all;
  }

  /** Names the paper's cases an addition of (dz, egress) met, from the changes it made. */
  private static Set<FlowAdditionCase> classify(
      Dz dz, EventEgress egress, List<TableChange> changes) {
    if (changes.isEmpty()) {
      return CASES.get(bit(FlowAdditionCase.COVERED_BY_EXISTING));
    }
    int cases = 0;
    for (TableChange c : changes) {
      if (c.dz().equals(dz)) {
        if (!c.isAddition()) {
          cases |= bit(FlowAdditionCase.SAME_DZ);
        } else if (c.after().size() != 1 || !c.after().contains(egress)) {
          cases |= bit(FlowAdditionCase.PARTIALLY_COVERED_BY_EXISTING); // inherits coarser ports
        } else if (changes.size() == 1) {
          cases |= bit(FlowAdditionCase.NO_OVERLAP);
        }
      } else if (c.isRemoval()) {
        cases |= bit(FlowAdditionCase.COVERS_EXISTING);
      } else {
        cases |= bit(FlowAdditionCase.PARTIALLY_COVERS_EXISTING);
      }
    }
    return CASES.get(cases);
  }

  private static int bit(FlowAdditionCase c) {
    return 1 << c.ordinal();
  }

  // Every set of cases, by its bits: an addition names one of them without allocating it.
  private static final List<Set<FlowAdditionCase>> CASES = allCaseSets();

  private static List<Set<FlowAdditionCase>> allCaseSets() {
    FlowAdditionCase[] all = FlowAdditionCase.values();
    List<Set<FlowAdditionCase>> out = new ArrayList<>(1 << all.length);
    for (int bits = 0; bits < 1 << all.length; bits++) {
      Set<FlowAdditionCase> set = EnumSet.noneOf(FlowAdditionCase.class);
      for (FlowAdditionCase c : all) {
        if ((bits & bit(c)) != 0) {
          set.add(c);
        }
      }
      out.add(Collections.unmodifiableSet(set));
    }
    return List.copyOf(out);
  }
}
