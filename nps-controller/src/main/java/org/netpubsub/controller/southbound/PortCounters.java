package org.netpubsub.controller.southbound;

/** One port's traffic counters from a port-stats reply (unsupported counters read as 0). */
public record PortCounters(long port, long rxBytes, long txBytes, long rxPackets, long txPackets) {}
