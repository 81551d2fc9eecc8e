package org.netpubsub.network.multicast;

import java.util.List;

public record TreeSegments(int root, Branch entry, List<SegmentId> used, List<SegmentId> created) {}
