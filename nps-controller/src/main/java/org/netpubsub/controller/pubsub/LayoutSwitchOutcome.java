package org.netpubsub.controller.pubsub;

/** What a layout switch did: the new version, and the flows and times of its phases. */
public record LayoutSwitchOutcome(
    long version,
    int requests,
    int flowsInstalled,
    int flowsRemoved,
    double installMillis,
    double totalMillis) {}
