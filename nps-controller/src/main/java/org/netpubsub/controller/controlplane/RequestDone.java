package org.netpubsub.controller.controlplane;

/**
 * A request every part of which is processed and acknowledged: its processing latency (from
 * submission to the last part's acknowledgement, PLEROMA §V-C), its parts and the flow-mods sent.
 */
public record RequestDone(String id, long latencyNanos, int parts, int flowMods) {}
