package org.netpubsub.client;

/**
 * The controller's answer to an advertisement or subscription: its id ({@code a-1}, {@code s-1}),
 * how many dz cells the filter became, how many flow changes on how many switches it caused, and
 * the controller's response time (all flow changes acknowledged by barrier). {@code port} is the
 * subscriber's UDP port, or -1 for an advertisement.
 */
public record Registration(
    String id,
    String host,
    String filter,
    int port,
    int cells,
    int flowChanges,
    int switches,
    double responseMs) {}
