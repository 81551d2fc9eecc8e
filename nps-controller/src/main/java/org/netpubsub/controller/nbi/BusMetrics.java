package org.netpubsub.controller.nbi;

/**
 * The bus's counters since it started. {@code deliveries} counts packet-ins queued to apps (one
 * packet-in for three apps is three); {@code unclaimed} packet-ins matched no app's topic.
 */
public record BusMetrics(
    long packetIns,
    long deliveries,
    long unclaimed,
    long replies,
    long packetOuts,
    long duplicatePacketOuts,
    long deadPortPacketOuts,
    long flowMods,
    long refusedFlowMods,
    long appFailures) {}
