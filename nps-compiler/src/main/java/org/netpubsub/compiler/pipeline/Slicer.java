package org.netpubsub.compiler.pipeline;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.compiler.bdd.Bdd;
import org.netpubsub.compiler.bdd.Leaf;
import org.netpubsub.compiler.spec.MessageSpec;

/**
 * Algorithm 2, kept up to date: slices a (projected) BDD into per-field tables and a leaf table,
 * and after each new root emits only the difference.
 *
 * <p>The component of field f holds the nodes testing f. Its <em>In</em> nodes — entered from an
 * earlier field (or the root) — are the states of f's table; each one's entries are the paths
 * through its chain to the nodes it leaves for, with the range of values that takes each path. A
 * range field's chain tests ascending thresholds and exits on the true branch, so the paths cut the
 * domain into consecutive ranges; an exact field's chain tests values and its last false branch is
 * the state's default entry. Paths to the empty leaf get no entry (the message ends in no group:
 * dropped) — except where an exact chain with a default tests a value whose true branch is the
 * empty leaf: that value gets an entry that keeps the state (a dead end), or the default would take
 * it. Every In node and non-empty leaf has a state id; the root's is 0.
 *
 * <p>Entries are a function of the node alone (nodes are immutable and hash-consed), so an update
 * re-slices only the In nodes that appeared and deletes those that disappeared; the states of the
 * others, and so their entries, stay as they were.
 *
 * <p>State and group ids are compact by default. With content ids (issue 27 part 7: a restarted
 * controller, fed the standing rules in another order and without the churn before, must want the
 * very same entries) a state's id is the hash of its node's sub-diagram — canonical, so the same in
 * any store that holds the same function — in 1..2³¹−2, and a group's the hash of its actions in
 * 1..2²⁸−1 (a target may add 2²⁸ for a variant of the group); a collision takes the next free id.
 */
public final class Slicer implements Pipeline {
  private final Bdd bdd;
  private final MessageSpec spec;
  private final long[] max;

  private int root = -1;
  private int[] refs = new int[1024]; // per node: live edges into it, +1 for the root
  private int[] inRefs = new int[1024]; // per node: live edges into it from another field
  private final Map<Integer, Integer> stateOf =
      new HashMap<>(); // In node / leaf → state (not root)
  private final IdAllocator states; // 0 is the root's
  private final Map<Integer, List<Edge>> edges = new HashMap<>();

  private final List<Map<Integer, List<FieldEntry>>> tables = new ArrayList<>();
  private final Map<Integer, LeafEntry> leaves = new LinkedHashMap<>();

  private final Map<Leaf, Group> groupOf = new HashMap<>();
  private final Map<Integer, Integer> groupUsers = new HashMap<>();
  private final Map<Integer, Group> groups = new LinkedHashMap<>();
  private final IdAllocator groupIds;
  private final List<Leaf> unused = new ArrayList<>(); // groups whose users went this update
  private final boolean contentIds;
  private final Map<Integer, Long> contentHash = new HashMap<>(); // node → hash of its sub-diagram

  /** Largest content group id + 1: a target may offset a group's variant by it. */
  public static final int CONTENT_GROUP_SPAN = 1 << 28;

  /** One path out of an In node: values matching {@code match} lead to node {@code target}. */
  private record Edge(Match match, int target) {}

  /**
   * The target of an edge that keeps the state: a state of field f has no entry in later tables and
   * no leaf entry, so the message is dropped (see {@link #paths}).
   */
  private static final int STAY = -1;

  public Slicer(Bdd bdd, MessageSpec spec) {
    this(bdd, spec, false);
  }

  /** With {@code contentIds}, state and group ids from content (see the class comment). */
  public Slicer(Bdd bdd, MessageSpec spec, boolean contentIds) {
    this.bdd = bdd;
    this.spec = spec;
    this.contentIds = contentIds;
    this.states = contentIds ? IdAllocator.hashed(1, Integer.MAX_VALUE - 1) : new IdAllocator(1);
    this.groupIds = contentIds ? IdAllocator.hashed(1, CONTENT_GROUP_SPAN - 1) : new IdAllocator(1);
    this.max = spec.fields().stream().mapToLong(q -> q.max()).toArray();
    for (int f = 0; f < max.length; f++) {
      tables.add(new LinkedHashMap<>());
    }
  }

  /** Makes the tables those of {@code newRoot}; returns what changed. */
  public PipelineDiff update(int newRoot) {
    PipelineDiff diff = new PipelineDiff(max.length);
    if (newRoot == root) {
      return diff;
    }
    grow(bdd.size());
    // Count the new root's references before dropping the old one's: shared nodes stay live.
    IntStack touched = new IntStack();
    if (newRoot != Bdd.EMPTY) {
      acquire(newRoot, touched);
    }
    if (root >= 0 && root != Bdd.EMPTY) {
      release(root, touched);
      unslice(root, 0, diff);
      if (inRefs[root] == 0) {
        edges.remove(root);
      }
    }
    List<Integer> gone = new ArrayList<>();
    List<Integer> fresh = new ArrayList<>();
    for (int i = 0; i < touched.size(); i++) {
      int n = touched.get(i);
      boolean isIn = inRefs[n] > 0;
      if (stateOf.containsKey(n) && !isIn) {
        gone.add(n);
      } else if (isIn && !stateOf.containsKey(n)) {
        stateOf.put(n, -1); // allocated below, once every gone state is released
        fresh.add(n);
      }
    }
    for (int n : gone) {
      int st = stateOf.remove(n);
      unslice(n, st, diff);
      edges.remove(n);
      states.release(st);
    }
    for (int n : fresh) {
      stateOf.put(n, contentIds ? states.allocate(hash(n)) : states.allocate());
    }
    for (int n : fresh) {
      slice(n, stateOf.get(n), diff);
    }
    if (newRoot != Bdd.EMPTY) {
      slice(newRoot, 0, diff);
    }
    root = newRoot;
    dropUnused(diff);
    diff.cancelCommon(); // the root's entries that did not change
    states.endUpdate();
    groupIds.endUpdate();
    return diff;
  }

  /**
   * Counts {@code r} as a root and every edge below it that becomes live; nodes whose count of
   * entries from another field (their being an In node) may have changed go to {@code touched}.
   */
  private void acquire(int r, IntStack touched) {
    count(r, 1, touched);
  }

  /** Undoes {@link #acquire}: edges below nodes whose last reference goes are dropped too. */
  private void release(int r, IntStack touched) {
    count(r, -1, touched);
  }

  /**
   * Adds {@code delta} to the root's reference and, below every node whose count leaves or reaches
   * 0, to its edges' counts; a node whose count of edges from another field leaves or reaches 0 is
   * touched.
   */
  private void count(int r, int delta, IntStack touched) {
    IntStack todo = new IntStack();
    if (flips(refs, r, delta)) {
      todo.push(r);
    }
    while (todo.size() > 0) {
      int n = todo.pop();
      if (bdd.isLeaf(n)) {
        continue;
      }
      for (int k = 0; k < 2; k++) {
        int c = k == 0 ? bdd.whenTrue(n) : bdd.whenFalse(n);
        if (c == Bdd.EMPTY) {
          continue;
        }
        if (entersComponent(n, c) && flips(inRefs, c, delta)) {
          touched.push(c);
        }
        if (flips(refs, c, delta)) {
          todo.push(c);
        }
      }
    }
  }

  /** Adds delta to counts[n]: whether it went from 0 (adding) or to 0 (taking away). */
  private static boolean flips(int[] counts, int n, int delta) {
    int before = counts[n];
    counts[n] = before + delta;
    return delta > 0 ? before == 0 : counts[n] == 0;
  }

  /** Whether the edge n → c enters c's component from outside (c is then an In node or a leaf). */
  private boolean entersComponent(int n, int c) {
    return bdd.isLeaf(c) || bdd.field(c) != bdd.field(n);
  }

  private void grow(int size) {
    if (refs.length < size) {
      int n = Math.max(size, 2 * refs.length);
      refs = java.util.Arrays.copyOf(refs, n);
      inRefs = java.util.Arrays.copyOf(inRefs, n);
    }
  }

  /** A growable stack of ints. */
  private static final class IntStack {
    private int[] a = new int[64];
    private int n;

    void push(int v) {
      if (n == a.length) {
        a = java.util.Arrays.copyOf(a, 2 * n);
      }
      a[n++] = v;
    }

    int pop() {
      return a[--n];
    }

    int get(int i) {
      return a[i];
    }

    int size() {
      return n;
    }
  }

  private void slice(int n, int state, PipelineDiff diff) {
    if (bdd.isLeaf(n)) {
      Leaf l = bdd.leafOf(n);
      LeafEntry e = new LeafEntry(state, acquireGroup(l, diff).id());
      leaves.put(state, e);
      diff.addLeaf(e);
      return;
    }
    int f = bdd.field(n);
    List<FieldEntry> entries = new ArrayList<>();
    for (Edge e : edges.computeIfAbsent(n, this::paths)) {
      int next = e.target() == STAY ? state : stateOf.get(e.target());
      FieldEntry entry = new FieldEntry(state, e.match(), next);
      entries.add(entry);
      diff.add(f, entry);
    }
    tables.get(f).put(state, entries);
  }

  private void unslice(int n, int state, PipelineDiff diff) {
    if (bdd.isLeaf(n)) {
      LeafEntry e = leaves.remove(state);
      diff.removeLeaf(e);
      releaseGroup(bdd.leafOf(n), diff);
      return;
    }
    int f = bdd.field(n);
    for (FieldEntry e : tables.get(f).remove(state)) {
      diff.remove(f, e);
    }
  }

  /** Algorithm 2 for one In node: its chain's paths, adjacent ranges to one target merged. */
  private List<Edge> paths(int u) {
    int f = bdd.field(u);
    List<Edge> out = new ArrayList<>();
    int n = u;
    if (bdd.isEquality(f)) {
      List<Long> dropped = new ArrayList<>();
      for (; bdd.isNode(n) && bdd.field(n) == f; n = bdd.whenFalse(n)) {
        if (bdd.whenTrue(n) != Bdd.EMPTY) {
          out.add(new Edge(new Match.Value(bdd.constant(n)), bdd.whenTrue(n)));
        } else {
          dropped.add(bdd.constant(n));
        }
      }
      if (n != Bdd.EMPTY) {
        // Below a default, a value that leads nowhere needs an entry of its own, or the default
        // would take it: one that keeps the state, a dead end.
        for (long c : dropped) {
          out.add(new Edge(new Match.Value(c), STAY));
        }
        out.add(new Edge(Match.ANY, n));
      }
      return out;
    }
    long lo = 0;
    for (; bdd.isNode(n) && bdd.field(n) == f; n = bdd.whenFalse(n)) {
      long c = bdd.constant(n); // values in [lo, c − 1] take the true branch
      if (bdd.whenTrue(n) != Bdd.EMPTY) {
        addRange(out, lo, c - 1, bdd.whenTrue(n));
      }
      lo = c;
    }
    if (n != Bdd.EMPTY) {
      addRange(out, lo, max[f], n);
    }
    return out;
  }

  private static void addRange(List<Edge> out, long lo, long hi, int target) {
    if (!out.isEmpty()) {
      Edge last = out.get(out.size() - 1);
      long lastHi =
          switch (last.match()) {
            case Match.Value v -> v.value();
            case Match.Range r -> r.hi();
            case Match.Any a -> throw new AssertionError("no default in a range table");
          };
      if (last.target() == target && lastHi + 1 == lo) {
        long lastLo = last.match() instanceof Match.Range r ? r.lo() : lastHi;
        out.set(out.size() - 1, new Edge(Match.of(lastLo, hi), target));
        return;
      }
    }
    out.add(new Edge(Match.of(lo, hi), target));
  }

  private Group acquireGroup(Leaf l, PipelineDiff diff) {
    Group g = groupOf.get(l);
    if (g == null) {
      g = new Group(contentIds ? groupIds.allocate(hash(l)) : groupIds.allocate(), l.actions());
      groupOf.put(l, g);
      groups.put(g.id(), g);
      diff.addGroup(g);
    }
    groupUsers.merge(g.id(), 1, Integer::sum);
    return g;
  }

  /**
   * One user fewer; a group without users goes at the end of the update ({@link #dropUnused}), so
   * that a leaf whose old state goes and whose new state comes in one update keeps its group and id
   * (a new id would also depend on what the update freed: not a function of the content).
   */
  private void releaseGroup(Leaf l, PipelineDiff diff) {
    Group g = groupOf.get(l);
    if (groupUsers.merge(g.id(), -1, Integer::sum) == 0) {
      unused.add(l);
    }
  }

  /** Removes the groups left without users by this update. */
  private void dropUnused(PipelineDiff diff) {
    for (Leaf l : unused) {
      Group g = groupOf.get(l);
      if (g != null && groupUsers.get(g.id()) == 0) {
        groupUsers.remove(g.id());
        groupOf.remove(l);
        groups.remove(g.id());
        groupIds.release(g.id());
        diff.removeGroup(g);
      }
    }
    unused.clear();
  }

  /**
   * The hash of node {@code n}'s sub-diagram: of its leaf's actions, or of its field, constant and
   * both branches'. A fixed mix (SplitMix64's finaliser), never a JDK hashCode, so two JVMs agree.
   * A field's chain (down the false branches) is walked in a loop, only later fields recursively,
   * as {@link Bdd} does: a chain may hold thousands of thresholds.
   */
  private long hash(int n) {
    Long known = contentHash.get(n);
    if (known != null) {
      return known;
    }
    if (bdd.isLeaf(n)) {
      long h = hash(bdd.leafOf(n));
      contentHash.put(n, h);
      return h;
    }
    IntStack chain = new IntStack();
    int m = n;
    while (bdd.isNode(m) && bdd.field(m) == bdd.field(n) && !contentHash.containsKey(m)) {
      chain.push(m);
      m = bdd.whenFalse(m);
    }
    long h = hash(m); // the chain's end: a later field, a leaf, or a node already hashed
    for (int i = chain.size() - 1; i >= 0; i--) {
      int c = chain.get(i);
      h =
          mix(
              mix(mix(mix(0x5eed_0002L ^ bdd.field(c)) ^ bdd.constant(c)) ^ hash(bdd.whenTrue(c)))
                  ^ h);
      contentHash.put(c, h);
    }
    return h;
  }

  private static long hash(Leaf l) {
    long h = mix(0x5eed_0001L ^ l.size());
    for (int i = 0; i < l.size(); i++) {
      h = mix(h ^ l.action(i));
    }
    return h;
  }

  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58_476d_1ce4_e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d0_49bb_1331_11ebL;
    return z ^ (z >>> 31);
  }

  /** The BDD nodes the tables are made of (the root and every state's node). */
  public int[] nodes() {
    int[] out = new int[stateOf.size() + 1];
    int i = 0;
    for (int n : stateOf.keySet()) {
      out[i++] = n;
    }
    out[i] = Math.max(root, 0);
    return out;
  }

  /** Renames every node after {@link Bdd#compact}; states and entries stay as they are. */
  public void rename(int[] remap) {
    contentHash.clear(); // keyed by node numbers, which change
    Map<Integer, Integer> states2 = new HashMap<>();
    stateOf.forEach((n, s) -> states2.put(remap[n], s));
    stateOf.clear();
    stateOf.putAll(states2);
    Map<Integer, List<Edge>> edges2 = new HashMap<>();
    edges.forEach(
        (n, l) -> {
          if (remap[n] >= 0) {
            edges2.put(
                remap[n],
                l.stream()
                    .map(e -> e.target() == STAY ? e : new Edge(e.match(), remap[e.target()]))
                    .toList());
          }
        });
    edges.clear();
    edges.putAll(edges2);
    root = root < 0 ? root : remap[root];
    int[] r2 = new int[Math.max(1024, bdd.size())];
    int[] i2 = new int[r2.length];
    for (int n = 0; n < remap.length && n < refs.length; n++) {
      if (remap[n] >= 0) {
        r2[remap[n]] = refs[n];
        i2[remap[n]] = inRefs[n];
      }
    }
    refs = r2;
    inRefs = i2;
  }

  // ---- Pipeline ----

  @Override
  public MessageSpec spec() {
    return spec;
  }

  @Override
  public Collection<FieldEntry> table(int f) {
    List<FieldEntry> all = new ArrayList<>();
    tables.get(f).values().forEach(all::addAll);
    return Collections.unmodifiableList(all);
  }

  @Override
  public Collection<LeafEntry> leafTable() {
    return Collections.unmodifiableCollection(leaves.values());
  }

  @Override
  public Collection<Group> groups() {
    return Collections.unmodifiableCollection(groups.values());
  }

  @Override
  public int stateBound() {
    return states.bound();
  }

  @Override
  public int entries() {
    int n = leaves.size();
    for (Map<Integer, List<FieldEntry>> t : tables) {
      for (List<FieldEntry> l : t.values()) {
        n += l.size();
      }
    }
    return n;
  }

  /** The BDD state ids in use (the root's 0 included when there is one). */
  public int liveStates() {
    return states.live() + (root >= 0 && root != Bdd.EMPTY ? 1 : 0);
  }
}
