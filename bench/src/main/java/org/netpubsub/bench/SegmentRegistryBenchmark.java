package org.netpubsub.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.netpubsub.network.multicast.Graph;
import org.netpubsub.network.multicast.Group;
import org.netpubsub.network.multicast.GroupGenerator;
import org.netpubsub.network.multicast.MemberModel;
import org.netpubsub.network.multicast.MulticastTree;
import org.netpubsub.network.multicast.SegmentRegistry;
import org.netpubsub.network.multicast.ShortestPathTrees;
import org.netpubsub.network.multicast.TreeSegments;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * SNAPS Algorithm 1 per tree: {@link SegmentRegistry#add} of a direct shortest-path tree into a
 * registry already holding 5 000 groups' trees, then {@link SegmentRegistry#release} of it (so the
 * registry stays the same size). The graph is a seeded random connected one of 150 nodes and about
 * 190 links (TataNld's size and degree; the bench reads no files), border nodes all nodes of degree
 * at most 2, locality members.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class SegmentRegistryBenchmark {
  private static final int NODES = 150;
  private static final int STANDING = 5_000;
  private static final int TREES = 1024;

  @Param({"10", "40"})
  public int members;

  @Param({"sharing", "independent"})
  public String registry;

  private SegmentRegistry segments;
  private MulticastTree[] trees;
  private int next;

  @Setup
  public void setUp() {
    Random random = new Random(11);
    Graph.Builder b = Graph.builder(NODES);
    for (int i = 1; i < NODES; i++) {
      b.link(i, random.nextInt(i));
    }
    for (int extra = 0; extra < 40; extra++) {
      int u = random.nextInt(NODES);
      int v = random.nextInt(NODES);
      if (u != v) {
        b.link(u, v);
      }
    }
    Graph g = b.build();
    List<Integer> border = IntStream.range(0, NODES).filter(v -> g.degree(v) <= 2).boxed().toList();
    GroupGenerator groups = new GroupGenerator(g, border, members, MemberModel.LOCALITY, 5);
    segments =
        registry.equals("sharing") ? SegmentRegistry.sharing() : SegmentRegistry.independent();
    for (int i = 0; i < STANDING; i++) {
      segments.add(tree(g, groups.next()));
    }
    List<MulticastTree> list = new ArrayList<>();
    for (int i = 0; i < TREES; i++) {
      list.add(tree(g, groups.next()));
    }
    trees = list.toArray(MulticastTree[]::new);
  }

  private static MulticastTree tree(Graph g, Group group) {
    return ShortestPathTrees.direct(g, group.root(), group.members());
  }

  @Benchmark
  public int addThenRelease() {
    TreeSegments t = segments.add(trees[next++ & (TREES - 1)]);
    return t.created().size() + segments.release(t).size();
  }
}
