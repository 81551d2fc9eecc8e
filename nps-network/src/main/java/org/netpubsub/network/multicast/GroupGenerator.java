package org.netpubsub.network.multicast;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

/**
 * Seeded groups for the SNAPS simulation: the root uniform among the border nodes, then {@code
 * size} distinct members among the other border nodes by the {@link MemberModel}. The same graph,
 * border, size, model and seed always give the same groups ({@link Random} is fully specified).
 */
public final class GroupGenerator {
  private final List<Integer> border;
  private final int size;
  private final MemberModel model;
  private final Random random;
  private final int[][] distance;

  public GroupGenerator(Graph g, List<Integer> border, int size, MemberModel model, long seed) {
    this.border = List.copyOf(new TreeSet<>(border));
    if (size < 1 || size >= this.border.size()) {
      throw new IllegalArgumentException(
          "a group of "
              + size
              + " members needs at least "
              + (size + 1)
              + " border nodes (root included); there are "
              + this.border.size());
    }
    this.size = size;
    this.model = model;
    this.random = new Random(seed);
    this.distance = new int[g.size()][];
    if (model == MemberModel.LOCALITY) {
      for (int b : this.border) {
        distance[b] = g.distancesFrom(b);
      }
    }
  }

  public Group next() {
    List<Integer> candidates = new ArrayList<>(border);
    int root = candidates.remove(random.nextInt(candidates.size()));
    List<Integer> members = new ArrayList<>(size);
    members.add(candidates.remove(random.nextInt(candidates.size())));
    while (members.size() < size) {
      int pick =
          model == MemberModel.RANDOM
              ? random.nextInt(candidates.size())
              : nearby(candidates, members.get(members.size() - 1));
      members.add(candidates.remove(pick));
    }
    return new Group(root, new TreeSet<>(members));
  }

  /** A candidate's index, drawn with weight e^(-2d) by hop distance d to {@code previous}. */
  private int nearby(List<Integer> candidates, int previous) {
    double[] cumulative = new double[candidates.size()];
    double total = 0;
    for (int i = 0; i < cumulative.length; i++) {
      int d = distance[previous][candidates.get(i)];
      total += d < 0 ? 0 : Math.exp(-2.0 * d);
      cumulative[i] = total;
    }
    if (total == 0) {
      throw new IllegalArgumentException("no border node is reachable from " + previous);
    }
    double x = random.nextDouble() * total;
    for (int i = 0; i < cumulative.length; i++) {
      if (x < cumulative[i]) {
        return i;
      }
    }
    return cumulative.length - 1;
  }
}
