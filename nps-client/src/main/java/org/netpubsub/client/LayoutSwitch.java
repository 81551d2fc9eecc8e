package org.netpubsub.client;

/**
 * What an online layout switch did ({@code PUT /v1/pubsub/layout}): the new index version, the
 * standing requests moved, the flows installed and removed, the time until the new flows stood
 * (when the new version was announced) and in all (after the grace period, old flows removed).
 */
public record LayoutSwitch(
    long version,
    int requests,
    int flowsInstalled,
    int flowsRemoved,
    double installMs,
    double totalMs) {}
