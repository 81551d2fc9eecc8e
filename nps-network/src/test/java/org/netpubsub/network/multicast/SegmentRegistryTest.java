package org.netpubsub.network.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SegmentRegistryTest {
  /**
   * A reconstruction of SNAPS Fig. 4: routers 5–9 serve the subscribers; publisher 2 reaches them
   * through 10, which splits towards 14 (5, 6) and 16 (7, 8, 9); publisher 4 is wired to 14, 16 and
   * 12 directly.
   */
  static Graph figure4() {
    return Graph.builder(17)
        .link(2, 10)
        .link(10, 12)
        .link(10, 14)
        .link(10, 16)
        .link(12, 16)
        .link(12, 4)
        .link(4, 14)
        .link(4, 16)
        .link(14, 5)
        .link(14, 6)
        .link(16, 7)
        .link(16, 8)
        .link(16, 9)
        .build();
  }

  static final Set<Integer> SUBSCRIBERS = Set.of(5, 6, 7, 8, 9);

  @Test
  void figure4SecondPublisherCreatesOnlyItsRootSegment() {
    Graph g = figure4();
    SegmentRegistry r = SegmentRegistry.sharing();
    TreeSegments first = r.add(ShortestPathTrees.direct(g, 2, SUBSCRIBERS));
    SegmentId b14 = on(14, first.created());
    SegmentId b16 = on(16, first.created());
    SegmentId b10 = on(10, first.created());
    assertThat(first.created()).containsExactly(b14, b16, b10);
    assertThat(first.entry()).isEqualTo(new Branch.ToSegment(b10)); // root 2 has one branch
    assertThat(r.segment(b10).branches())
        .containsExactly(new Branch.ToSegment(b14), new Branch.ToSegment(b16));
    assertThat(r.segment(b16).branches())
        .containsExactly(new Branch.ToMember(7), new Branch.ToMember(8), new Branch.ToMember(9));
    assertThat(r.segment(b14).descendantLeaves()).containsExactly(5, 6);

    TreeSegments second = r.add(ShortestPathTrees.direct(g, 4, SUBSCRIBERS));
    SegmentId b4 = on(4, second.created());
    assertThat(second.created()).containsExactly(b4);
    assertThat(second.used()).containsExactly(b14, b16, b4);
    assertThat(r.segment(b4).branches())
        .containsExactly(new Branch.ToSegment(b14), new Branch.ToSegment(b16));
    assertThat(r.size()).isEqualTo(4);
    assertThat(r.references(b14)).isEqualTo(2);

    SegmentRegistry alone = SegmentRegistry.independent();
    alone.add(ShortestPathTrees.direct(g, 2, SUBSCRIBERS));
    assertThat(alone.add(ShortestPathTrees.direct(g, 4, SUBSCRIBERS)).created()).hasSize(3);
    assertThat(alone.size()).isEqualTo(6);

    // the first publisher leaves: only its own segment at 10 goes; 4's tree keeps 14 and 16
    assertThat(r.release(first)).containsExactly(b10);
    assertThat(r.release(second)).containsExactly(b4, b16, b14);
    assertThat(r.size()).isZero();
  }

  @Test
  void aSingleMemberNeedsNoSegment() {
    SegmentRegistry r = SegmentRegistry.sharing();
    TreeSegments t = r.add(ShortestPathTrees.direct(figure4(), 2, Set.of(9)));
    assertThat(t.entry()).isEqualTo(new Branch.ToMember(9));
    assertThat(t.used()).isEmpty();
    assertThat(r.size()).isZero();
  }

  @Test
  void anInnerMemberBranchesToItselfFirst() {
    Graph line = Graph.builder(4).link(0, 1).link(1, 2).link(1, 3).build();
    SegmentRegistry r = SegmentRegistry.sharing();
    TreeSegments t = r.add(ShortestPathTrees.direct(line, 0, Set.of(1, 2)));
    SegmentId b1 = on(1, t.created());
    assertThat(t.entry()).isEqualTo(new Branch.ToSegment(b1));
    assertThat(r.segment(b1))
        .isEqualTo(
            new ReplicationSegment(
                b1, Set.of(1, 2), List.of(new Branch.ToMember(1), new Branch.ToMember(2))));
  }

  @Test
  void theRootIsDroppedFromItsMembers() {
    MulticastTree t = ShortestPathTrees.direct(figure4(), 14, Set.of(14, 5, 6));
    assertThat(t.members()).containsExactly(5, 6);
    TreeSegments s = SegmentRegistry.sharing().add(t);
    assertThat(s.created()).containsExactly(on(14, s.created()));
  }

  @Test
  void aChangedTreeGetsNewSegmentsAndLeavesOthersAlone() {
    Graph g = figure4();
    SegmentRegistry r = SegmentRegistry.sharing();
    TreeSegments a = r.add(ShortestPathTrees.direct(g, 2, SUBSCRIBERS));
    TreeSegments b = r.add(ShortestPathTrees.direct(g, 4, SUBSCRIBERS));
    SegmentId old16 = on(16, a.created());
    ReplicationSegment b16 = r.segment(old16);
    // 4's group loses member 9: new segments at 16 and 4; 2's tree keeps its B16 untouched
    TreeSegments b2 = r.add(ShortestPathTrees.direct(g, 4, Set.of(5, 6, 7, 8)));
    SegmentId new16 = on(16, b2.created());
    SegmentId new4 = on(4, b2.created());
    assertThat(b2.created()).containsExactly(new16, new4);
    assertThat(new16).isNotEqualTo(old16);
    assertThat(r.release(b)).containsExactly(on(4, b.created()));
    assertThat(new4).isNotEqualTo(on(4, b.created()));
    assertThat(r.segment(old16)).isEqualTo(b16);
    assertThat(MulticastArbitraries.deliveries(r, a.entry()))
        .isEqualTo(Map.of(5, 1, 6, 1, 7, 1, 8, 1, 9, 1));
  }

  @Test
  void refusesEmptyTreesAndTreesNotAdded() {
    SegmentRegistry r = SegmentRegistry.sharing();
    MulticastTree empty = ShortestPathTrees.direct(figure4(), 2, Set.of(2));
    assertThatThrownBy(() -> r.add(empty)).hasMessageContaining("no members");
    MulticastTree tree = ShortestPathTrees.direct(figure4(), 2, SUBSCRIBERS);
    TreeSegments t = r.add(tree);
    TreeSegments same = r.add(tree); // equal to t: the same tree, every segment reused
    assertThat(same).isEqualTo(new TreeSegments(2, t.entry(), t.used(), List.of()));
    assertThat(r.release(t)).isEmpty();
    assertThat(r.release(same)).hasSize(3);
    assertThatThrownBy(() -> r.release(t)).hasMessageContaining("released already");
    TreeSegments elsewhere = SegmentRegistry.sharing().add(tree);
    assertThatThrownBy(() -> r.release(elsewhere)).hasMessageContaining("not added here");
  }

  /**
   * Issue 27 part 7: an index is a hash of the segment's node and leaves, not a count, so the same
   * tree added again, or added to another registry after other trees (a restarted controller), gets
   * the same indices; another leaf set at the node gets another index, and so does a second copy of
   * the same segment when nothing is shared (the next free index after the taken one).
   */
  @Test
  void indexesAreAFunctionOfTheSegmentsLeavesNotOfTheOrder() {
    Graph g = figure4();
    SegmentRegistry r = SegmentRegistry.sharing();
    TreeSegments first = r.add(ShortestPathTrees.direct(g, 2, SUBSCRIBERS));
    r.release(first);
    TreeSegments again = r.add(ShortestPathTrees.direct(g, 2, SUBSCRIBERS));
    assertThat(again.created()).isEqualTo(first.created());

    SegmentRegistry restarted = SegmentRegistry.sharing();
    restarted.add(ShortestPathTrees.direct(g, 4, Set.of(5, 6, 7, 8)));
    TreeSegments later = restarted.add(ShortestPathTrees.direct(g, 2, SUBSCRIBERS));
    assertThat(later.used()).containsExactlyInAnyOrderElementsOf(first.used());
    assertThat(restarted.segment(on(16, later.used())).descendantLeaves())
        .containsExactlyInAnyOrder(7, 8, 9);

    SegmentRegistry alone = SegmentRegistry.independent();
    TreeSegments one = alone.add(ShortestPathTrees.direct(g, 2, SUBSCRIBERS));
    TreeSegments two = alone.add(ShortestPathTrees.direct(g, 2, SUBSCRIBERS));
    assertThat(one.created()).isEqualTo(first.created());
    SegmentId b14 = on(14, one.created());
    assertThat(on(14, two.created()).index()).isEqualTo(b14.index() + 1);
    assertThat(new SegmentId(14, 2)).hasToString("B14::2");
  }

  /** The one segment at {@code node} among {@code ids}. */
  static SegmentId on(int node, List<SegmentId> ids) {
    List<SegmentId> at = ids.stream().filter(id -> id.node() == node).toList();
    assertThat(at).as("segments at %d among %s", node, ids).hasSize(1);
    return at.get(0);
  }
}
