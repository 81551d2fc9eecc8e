package org.netpubsub.network.multicast;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A replication segment: at node {@code id.node()}, one copy per branch. {@code descendantLeaves}
 * are the members it reaches, through its branches and theirs (ascending); trees share a segment
 * when they need exactly these members reached from this node (Algorithm 1). Immutable once
 * installed.
 */
public record ReplicationSegment(
    SegmentId id, Set<Integer> descendantLeaves, List<Branch> branches) {
  public ReplicationSegment {
    descendantLeaves = Collections.unmodifiableSet(new TreeSet<>(descendantLeaves));
    branches = List.copyOf(branches);
  }
}
