package org.netpubsub.network.multicast;

import java.util.List;

/**
 * A tree's use of segments. {@code entry} is where the source sends its one copy: a segment, or the
 * single member when nothing needs replicating. {@code used} is every segment a copy passes
 * through, downstream first (a segment after all segments it sends to); {@code created} is the part
 * of it new to the network, in the same order, so installing in list order never points a segment
 * at one not yet installed.
 */
public record TreeSegments(int root, Branch entry, List<SegmentId> used, List<SegmentId> created) {
  public TreeSegments {
    used = List.copyOf(used);
    created = List.copyOf(created);
  }
}
