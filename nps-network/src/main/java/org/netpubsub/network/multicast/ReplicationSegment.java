package org.netpubsub.network.multicast;

import java.util.List;
import java.util.Set;

public record ReplicationSegment(
    SegmentId id, Set<Integer> descendantLeaves, List<Branch> branches) {}
