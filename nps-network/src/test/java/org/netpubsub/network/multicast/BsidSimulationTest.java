package org.netpubsub.network.multicast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class BsidSimulationTest {
  /** A 6×6 grid: enough branching for trees to share. */
  static Graph grid() {
    Graph.Builder b = Graph.builder(36);
    for (int r = 0; r < 6; r++) {
      for (int c = 0; c < 6; c++) {
        if (c < 5) {
          b.link(6 * r + c, 6 * r + c + 1);
        }
        if (r < 5) {
          b.link(6 * r + c, 6 * r + c + 6);
        }
      }
    }
    return b.build();
  }

  @Test
  void checkpointsMatchReplayingTheSameGroupsByHand() {
    Graph g = grid();
    List<Integer> border = IntStream.range(0, 36).boxed().toList();
    int rp = ShortestPathTrees.rendezvousPoint(g, border);
    for (TreeStrategy strategy : TreeStrategy.values()) {
      List<BsidSimulation.Checkpoint> points =
          BsidSimulation.run(
              g, new GroupGenerator(g, border, 6, MemberModel.LOCALITY, 3), strategy, rp, 250, 100);
      assertThat(points)
          .extracting(BsidSimulation.Checkpoint::groups)
          .containsExactly(100, 200, 250);

      GroupGenerator again = new GroupGenerator(g, border, 6, MemberModel.LOCALITY, 3);
      SegmentRegistry sharing = SegmentRegistry.sharing();
      SegmentRegistry independent = SegmentRegistry.independent();
      for (int k = 1; k <= 250; k++) {
        Group group = again.next();
        MulticastTree t =
            strategy == TreeStrategy.DIRECT
                ? ShortestPathTrees.direct(g, group.root(), group.members())
                : ShortestPathTrees.viaRendezvous(g, group.root(), rp, group.members());
        sharing.add(t);
        independent.add(t);
      }
      BsidSimulation.Checkpoint last = points.get(2);
      assertThat(last.sharing()).isEqualTo(sharing.size());
      assertThat(last.independent()).isEqualTo(independent.size());
      // 250 groups of 6 on 36 nodes repeat leaf sets: sharing must save something
      assertThat(last.ratio()).isGreaterThan(1.0);
      assertThat(last.sharingPerGroup()).isLessThan(points.get(0).sharingPerGroup());
    }
  }
}
