package org.netpubsub.controller.controlplane;

/**
 * A request every part of which is processed and acknowledged: its processing latency (from
 * submission to the last part's acknowledgement, PLEROMA §V-C), its parts, the flow-mods sent, the
 * distinct switches they went to, and the publisher–subscriber paths set up or torn down.
 */
public record RequestDone(
    String id, long latencyNanos, int parts, int flowMods, int switches, int paths) {}
