package org.netpubsub.network.multicast;

import java.util.ArrayList;
import java.util.List;

/**
 * SNAPS §IV-A: groups are added one by one, each tree to a sharing and to an independent registry,
 * and the number of installed segments (BSIDs) is read at checkpoints. Both registries see the same
 * trees, so their ratio measures sharing alone.
 */
public final class BsidSimulation {
  /** After {@code groups} groups: BSIDs installed with and without sharing, summed tree sizes. */
  public record Checkpoint(int groups, int sharing, int independent, long treeNodes) {
    public double sharingPerGroup() {
      return (double) sharing / groups;
    }

    public double independentPerGroup() {
      return (double) independent / groups;
    }

    /** No-sharing over sharing BSIDs (1 when neither needs any). */
    public double ratio() {
      return sharing == 0 ? 1 : (double) independent / sharing;
    }
  }

  private BsidSimulation() {}

  /**
   * Adds {@code groups} groups from {@code generator}, built with {@code strategy} ({@code rp} is
   * the rendezvous point; unused for DIRECT), with a checkpoint every {@code every} groups and
   * after the last.
   */
  public static List<Checkpoint> run(
      Graph g, GroupGenerator generator, TreeStrategy strategy, int rp, int groups, int every) {
    if (groups < 1 || every < 1) {
      throw new IllegalArgumentException("groups and checkpoint spacing must be positive");
    }
    SegmentRegistry sharing = SegmentRegistry.sharing();
    SegmentRegistry independent = SegmentRegistry.independent();
    List<Checkpoint> out = new ArrayList<>();
    long treeNodes = 0;
    for (int k = 1; k <= groups; k++) {
      Group group = generator.next();
      MulticastTree tree =
          strategy == TreeStrategy.DIRECT
              ? ShortestPathTrees.direct(g, group.root(), group.members())
              : ShortestPathTrees.viaRendezvous(g, group.root(), rp, group.members());
      sharing.add(tree);
      independent.add(tree);
      treeNodes += tree.nodes().size();
      if (k % every == 0 || k == groups) {
        out.add(new Checkpoint(k, sharing.size(), independent.size(), treeNodes));
      }
    }
    return out;
  }
}
