package org.netpubsub.network.openflow;

/** A flow-stats record of the simulated switch: the entry, its packet count and age (seconds). */
public record FlowStats(FlowEntry entry, long packetCount, long durationSeconds) {}
