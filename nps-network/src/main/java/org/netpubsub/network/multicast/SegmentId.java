package org.netpubsub.network.multicast;

public record SegmentId(int node, int index) {}
