package org.netpubsub.network.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.netpubsub.network.multicast.MulticastArbitraries.Add;
import org.netpubsub.network.multicast.MulticastArbitraries.Op;
import org.netpubsub.network.multicast.MulticastArbitraries.Release;
import org.netpubsub.network.multicast.MulticastArbitraries.Scenario;

/**
 * Algorithm 1 on random connected graphs: forwarding along the segments reaches every member once,
 * the registry decides as its naive twin does, sharing never costs segments, and releasing
 * everything leaves nothing installed.
 */
class SegmentRegistryProperties {
  @Provide
  Arbitrary<Scenario> withReleases() {
    return MulticastArbitraries.scenarios(true, EnumSet.allOf(TreeStrategy.class));
  }

  @Provide
  Arbitrary<Scenario> addsOnly() {
    return MulticastArbitraries.scenarios(false, EnumSet.allOf(TreeStrategy.class));
  }

  @Provide
  Arbitrary<Scenario> directAddsOnly() {
    return MulticastArbitraries.scenarios(false, EnumSet.of(TreeStrategy.DIRECT));
  }

  /** The live trees of a scenario run, with their segments and the tree that made each segment. */
  private static final class Run {
    final SegmentRegistry registry;
    final List<MulticastTree> trees = new ArrayList<>();
    final List<TreeSegments> segments = new ArrayList<>();
    final Map<SegmentId, MulticastTree> creator = new HashMap<>();

    Run(SegmentRegistry registry) {
      this.registry = registry;
    }
  }

  @Property(tries = 300)
  void everyLiveTreeDeliversToEachMemberExactlyOnceAlongItsCreatorsLinks(
      @ForAll("withReleases") Scenario s) {
    for (SegmentRegistry registry :
        List.of(SegmentRegistry.sharing(), SegmentRegistry.independent())) {
      Run run = new Run(registry);
      for (Op op : s.ops()) {
        apply(s, run, op);
        for (int i = 0; i < run.trees.size(); i++) {
          MulticastTree tree = run.trees.get(i);
          Map<Integer, Integer> expected = new HashMap<>();
          tree.members().forEach(m -> expected.put(m, 1));
          assertThat(MulticastArbitraries.deliveries(registry, run.segments.get(i).entry()))
              .as("%s", tree)
              .isEqualTo(expected);
          int entryNode = MulticastArbitraries.node(run.segments.get(i).entry());
          assertThat(isBelow(tree, entryNode, tree.root()) || entryNode == tree.root()).isTrue();
        }
        for (ReplicationSegment seg : registry.segments()) {
          MulticastTree made = run.creator.get(seg.id());
          for (Branch b : seg.branches()) {
            int next = MulticastArbitraries.node(b);
            boolean local = b instanceof Branch.ToMember && next == seg.id().node();
            assertThat(local || isBelow(made, next, seg.id().node()))
                .as("%s → %s in %s", seg.id(), b, made)
                .isTrue();
          }
          assertThat(seg.branches()).hasSizeGreaterThan(1);
        }
      }
    }
  }

  @Property(tries = 300)
  void decidesAsTheNaiveTwin(@ForAll("withReleases") Scenario s) {
    for (boolean share : List.of(true, false)) {
      SegmentRegistry fast = share ? SegmentRegistry.sharing() : SegmentRegistry.independent();
      NaiveSegmentRegistry naive = new NaiveSegmentRegistry(share);
      List<TreeSegments> live = new ArrayList<>();
      int reused = 0;
      for (Op op : s.ops()) {
        switch (op) {
          case Add a -> {
            MulticastTree tree = s.tree(a);
            if (tree != null) {
              TreeSegments got = fast.add(tree);
              assertThat(got).isEqualTo(naive.add(tree));
              live.add(got);
              reused += got.used().size() - got.created().size();
            }
          }
          case Release r -> {
            if (!live.isEmpty()) {
              TreeSegments t = live.remove(r.which() % live.size());
              assertThat(fast.release(t)).isEqualTo(naive.release(t));
            }
          }
        }
        assertThat(fast.size()).isEqualTo(naive.size());
        for (ReplicationSegment seg : fast.segments()) {
          assertThat(naive.segment(seg.id())).isEqualTo(seg);
        }
      }
      if (share) {
        Statistics.label("reused segments").collect(reused > 0);
      } else {
        assertThat(reused).isZero();
      }
    }
  }

  @Property(tries = 300)
  void sharingNeverInstallsMoreThanIndependent(@ForAll("addsOnly") Scenario s) {
    SegmentRegistry sharing = SegmentRegistry.sharing();
    SegmentRegistry independent = SegmentRegistry.independent();
    for (Op op : s.ops()) {
      MulticastTree tree = s.tree((Add) op);
      if (tree != null) {
        sharing.add(tree);
        independent.add(tree);
        assertThat(sharing.size()).isLessThanOrEqualTo(independent.size());
      }
    }
  }

  @Property(tries = 200)
  void releasingEveryTreeRemovesEverySegment(@ForAll("addsOnly") Scenario s) {
    for (SegmentRegistry registry :
        List.of(SegmentRegistry.sharing(), SegmentRegistry.independent())) {
      List<TreeSegments> added = new ArrayList<>();
      List<SegmentId> installed = new ArrayList<>();
      for (Op op : s.ops()) {
        MulticastTree tree = s.tree((Add) op);
        if (tree != null) {
          TreeSegments t = registry.add(tree);
          added.add(t);
          installed.addAll(t.created());
        }
      }
      List<SegmentId> removed = new ArrayList<>();
      for (TreeSegments t : added.reversed()) {
        Map<SegmentId, ReplicationSegment> before = new HashMap<>();
        t.used().forEach(id -> before.put(id, registry.segment(id)));
        List<SegmentId> freed = registry.release(t);
        // upstream first: no freed segment is pointed at by one freed after it
        for (int i = 0; i < freed.size(); i++) {
          for (int j = i + 1; j < freed.size(); j++) {
            assertThat(before.get(freed.get(j)).branches())
                .doesNotContain(new Branch.ToSegment(freed.get(i)));
          }
        }
        removed.addAll(freed);
      }
      assertThat(registry.size()).isZero();
      assertThat(removed).containsExactlyInAnyOrderElementsOf(installed);
    }
  }

  /**
   * Between segments a copy is routed by shortest paths. With direct trees, even through segments
   * another root made, each member is then reached over a shortest path from the root: reuse costs
   * no stretch.
   */
  @Property(tries = 200)
  void directTreesDeliverOverShortestPathsThroughSharedSegments(
      @ForAll("directAddsOnly") Scenario s) {
    SegmentRegistry registry = SegmentRegistry.sharing();
    for (Op op : s.ops()) {
      MulticastTree tree = s.tree((Add) op);
      if (tree == null) {
        continue;
      }
      TreeSegments t = registry.add(tree);
      int[] fromRoot = s.graph().distancesFrom(tree.root());
      Map<Integer, Integer> hops = new HashMap<>();
      walk(s.graph(), registry, t.entry(), tree.root(), 0, hops);
      for (int m : tree.members()) {
        assertThat(hops.get(m)).as("member %d of %s", m, tree).isEqualTo(fromRoot[m]);
      }
    }
  }

  private static void walk(
      Graph g, SegmentRegistry r, Branch b, int from, int sofar, Map<Integer, Integer> hops) {
    int at = MulticastArbitraries.node(b);
    int total = sofar + g.distancesFrom(from)[at];
    switch (b) {
      case Branch.ToMember m -> hops.put(m.member(), total);
      case Branch.ToSegment seg -> {
        for (Branch next : r.segment(seg.next()).branches()) {
          walk(g, r, next, at, total, hops);
        }
      }
    }
  }

  private static void apply(Scenario s, Run run, Op op) {
    switch (op) {
      case Add a -> {
        MulticastTree tree = s.tree(a);
        if (tree != null) {
          TreeSegments t = run.registry.add(tree);
          run.trees.add(tree);
          run.segments.add(t);
          t.created().forEach(id -> run.creator.put(id, tree));
          assertThat(Set.copyOf(t.used())).containsAll(t.created());
        }
      }
      case Release r -> {
        if (!run.trees.isEmpty()) {
          int i = r.which() % run.trees.size();
          run.trees.remove(i);
          run.registry.release(run.segments.remove(i)).forEach(run.creator::remove);
        }
      }
    }
  }

  /** Whether {@code node} is a proper descendant of {@code above} in {@code tree}. */
  private static boolean isBelow(MulticastTree tree, int node, int above) {
    if (!tree.nodes().contains(node)) {
      return false;
    }
    for (int v = tree.parent(node); v >= 0; v = tree.parent(v)) {
      if (v == above) {
        return true;
      }
    }
    return false;
  }
}
