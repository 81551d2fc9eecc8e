package org.netpubsub.network.multicast;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntToLongFunction;
import java.util.stream.Collectors;

/**
 * The replication segments installed in a network, reference counted by the trees that use them.
 *
 * <p>A tree node needs a segment when it has more than one branch: its children, plus local
 * delivery when it is a member. Other nodes just pass the copy on (unicast), so a chain of
 * single-branch nodes resolves to the segment or member at its end; a root with one branch sends
 * its copy straight there.
 *
 * <p>{@link #sharing()} runs SNAPS Algorithm 1: a branching node n whose descendant-leaf set DL[n]
 * equals that of a segment already at n reuses it, and everything below n is then that segment's
 * business (no segment of the new tree is placed under it); otherwise n gets a new segment whose
 * branches are the segments and members downstream. Matching goes top-down, so the highest matching
 * node wins and nothing is created beneath it, which is what the paper's bottom-up walk ends with
 * once covered leaves are struck off. Segments never change once created: a tree that changes is
 * added anew and the old one released, so no other tree is disturbed. {@link #independent()} never
 * reuses: the paper's "no sharing" baseline.
 *
 * <p>Existing segments are indexed by (node, leaf set), so adding a tree costs about its size.
 *
 * <p>A segment's index at its node (its group id and address on a switch) is a hash of its leaf set
 * ({@link ContentIds}), not a count of the segments created before it: a controller that learns the
 * same trees in another order (a restart, a takeover) numbers the same segments alike and rewrites
 * nothing (issue 27 part 7). Nodes are hashed by a label the caller gives them (a switch's dpid, a
 * host's address), so a number does not depend on how a graph numbers its nodes.
 */
public final class SegmentRegistry {
  /** What a shared segment is found by: its leaves, and in whole-shape mode its branches too. */
  private record Key(int node, BitSet leaves, Set<Branch> branches) {}

  private static final class Installed {
    final ReplicationSegment segment;
    final Key key;
    int references;

    Installed(ReplicationSegment segment, Key key) {
      this.segment = segment;
      this.key = key;
    }
  }

  private final boolean share;
  private final boolean wholeShape;
  private final Map<SegmentId, Installed> installed = new LinkedHashMap<>();
  private final Map<Key, SegmentId> byLeaves = new HashMap<>();

  /** Indices 1 .. {@link #MAX_INDEX} at each node (index - 1 is the slot). */
  private final ContentIds indices = new ContentIds(MAX_INDEX);

  private final IntToLongFunction label;
  // Equal trees added twice give equal TreeSegments, so results are counted, not held.
  private final Map<TreeSegments, Integer> live = new HashMap<>();

  /** The highest segment index: 24 bits, the switch layout's multicast group ids. */
  public static final int MAX_INDEX = 0xff_ffff;

  private SegmentRegistry(boolean share, boolean wholeShape, IntToLongFunction label) {
    this.share = share;
    this.wholeShape = wholeShape;
    this.label = label;
  }

  /** Trees share segments whose descendant-leaf sets match (Algorithm 1). */
  public static SegmentRegistry sharing() {
    return sharing(n -> n);
  }

  /**
   * Trees share segments; a segment's index is a hash of its node's and leaves' labels ({@code
   * label} of a node: stable across graphs of the same network).
   */
  public static SegmentRegistry sharing(IntToLongFunction label) {
    return new SegmentRegistry(true, false, label);
  }

  /**
   * Trees share a segment only when what it sends is the same, not just whom it reaches: equal
   * leaves and equal branches (found bottom-up, so an equal subtree is shared whole, as Algorithm 1
   * would). Algorithm 1's match on leaves alone lets the first of two trees that reach the same
   * leaves from a node by different paths decide the segment's branches, so the switches' groups
   * would depend on the order the trees came in; here they are a function of the standing trees
   * (issue 27 part 7: a restarted controller rewrites nothing). The index hashes the branches too.
   */
  public static SegmentRegistry sharingWholeShapes(IntToLongFunction label) {
    return new SegmentRegistry(true, true, label);
  }

  /**
   * Every tree gets its own segments. Two trees' segments with the same leaves at one node collide
   * in their hash, so the indices there do depend on the order of the trees.
   */
  public static SegmentRegistry independent() {
    return new SegmentRegistry(false, false, n -> n);
  }

  /**
   * The segments {@code tree} needs, installing the missing ones ({@code created}). Refuses a tree
   * without members: nothing needs to be sent, so callers skip it.
   */
  public TreeSegments add(MulticastTree tree) {
    if (tree.members().isEmpty()) {
      throw new IllegalArgumentException("tree at " + tree.root() + " has no members to reach");
    }
    Map<Integer, BitSet> leaves = new HashMap<>();
    descendantLeaves(tree, tree.root(), leaves);
    List<SegmentId> created = new ArrayList<>();
    Branch entry = resolve(tree, tree.root(), leaves, created);
    List<SegmentId> used = new ArrayList<>();
    collect(entry, used);
    for (SegmentId id : used) {
      installed.get(id).references++;
    }
    TreeSegments added = new TreeSegments(tree.root(), entry, used, created);
    live.merge(added, 1, Integer::sum);
    return added;
  }

  /**
   * Drops {@code tree}'s references (an {@link #add} result, released once per add); returns the
   * segments no tree uses any more (now removed), upstream first, so removing them in order never
   * leaves a segment pointing at a removed one.
   */
  public List<SegmentId> release(TreeSegments tree) {
    Integer adds = live.get(tree);
    if (adds == null) {
      throw new IllegalArgumentException(
          "tree at " + tree.root() + " was not added here, or is released already");
    }
    if (adds == 1) {
      live.remove(tree);
    } else {
      live.put(tree, adds - 1);
    }
    List<SegmentId> freed = new ArrayList<>();
    for (SegmentId id : tree.used()) {
      Installed s = installed.get(id);
      if (--s.references == 0) {
        installed.remove(id);
        byLeaves.remove(s.key, id);
        indices.free(id.node(), id.index() - 1);
        freed.add(id);
      }
    }
    Collections.reverse(freed);
    return freed;
  }

  /** The installed segment, or null. */
  public ReplicationSegment segment(SegmentId id) {
    Installed s = installed.get(id);
    return s == null ? null : s.segment;
  }

  /** How many trees use the segment (0 when not installed). */
  public int references(SegmentId id) {
    Installed s = installed.get(id);
    return s == null ? 0 : s.references;
  }

  /** Installed segments, in the order they were created. */
  public Collection<ReplicationSegment> segments() {
    return installed.values().stream().map(s -> s.segment).toList();
  }

  /** Segments currently installed (= BSIDs). */
  public int size() {
    return installed.size();
  }

  public boolean isSharing() {
    return share;
  }

  private static BitSet descendantLeaves(MulticastTree tree, int n, Map<Integer, BitSet> out) {
    BitSet dl = new BitSet();
    if (tree.isMember(n)) {
      dl.set(n);
    }
    for (int c : tree.children(n)) {
      dl.or(descendantLeaves(tree, c, out));
    }
    out.put(n, dl);
    return dl;
  }

  private static int branchCount(MulticastTree tree, int n) {
    return tree.children(n).size() + (tree.isMember(n) ? 1 : 0);
  }

  /** Where a copy arriving at n goes: n's segment, n itself, or whatever its one child leads to. */
  private Branch resolve(
      MulticastTree tree, int n, Map<Integer, BitSet> leaves, List<SegmentId> created) {
    int branches = branchCount(tree, n);
    if (branches == 1) {
      return tree.isMember(n)
          ? new Branch.ToMember(n)
          : resolve(tree, tree.children(n).get(0), leaves, created);
    }
    Key key = new Key(n, leaves.get(n), null);
    SegmentId existing = share && !wholeShape ? byLeaves.get(key) : null;
    if (existing != null) {
      return new Branch.ToSegment(existing);
    }
    List<Branch> out = new ArrayList<>(branches);
    if (tree.isMember(n)) {
      out.add(new Branch.ToMember(n));
    }
    for (int c : tree.children(n)) {
      out.add(resolve(tree, c, leaves, created));
    }
    if (wholeShape) {
      key = new Key(n, key.leaves(), Set.copyOf(out));
      existing = byLeaves.get(key);
      if (existing != null) {
        return new Branch.ToSegment(existing);
      }
    }
    SegmentId id = new SegmentId(n, 1 + indices.take(n, hash(n, key.leaves(), out)));
    Set<Integer> dl = key.leaves().stream().boxed().collect(Collectors.toSet());
    installed.put(id, new Installed(new ReplicationSegment(id, dl, out), key));
    if (share) {
      byLeaves.put(key, id);
    }
    created.add(id);
    return new Branch.ToSegment(id);
  }

  /**
   * What a segment stands for: its node and its descendant leaves, by their labels; in whole-shape
   * mode its branches too (a member's label, a next segment's node label and index; sorted, so the
   * order the tree lists its children in does not count).
   */
  private long hash(int node, BitSet leaves, List<Branch> branches) {
    long h = ContentIds.add(ContentIds.seed(1), label.applyAsLong(node));
    for (int l = leaves.nextSetBit(0); l >= 0; l = leaves.nextSetBit(l + 1)) {
      h = ContentIds.add(h, label.applyAsLong(l));
    }
    if (wholeShape) {
      long[] words = new long[branches.size()];
      for (int i = 0; i < words.length; i++) {
        words[i] =
            switch (branches.get(i)) {
              case Branch.ToMember(int m) ->
                  ContentIds.add(ContentIds.seed(2), label.applyAsLong(m));
              case Branch.ToSegment(SegmentId next) ->
                  ContentIds.add(
                      ContentIds.add(ContentIds.seed(3), label.applyAsLong(next.node())),
                      next.index());
            };
      }
      Arrays.sort(words);
      for (long w : words) {
        h = ContentIds.add(h, w);
      }
    }
    return h;
  }

  /** The segments a copy sent to {@code b} passes through, downstream first. */
  private void collect(Branch b, List<SegmentId> used) {
    if (b instanceof Branch.ToSegment(SegmentId id)) {
      for (Branch next : installed.get(id).segment.branches()) {
        collect(next, used);
      }
      used.add(id);
    }
  }
}
