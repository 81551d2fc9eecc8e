package org.netpubsub.controller.southbound;

import java.time.Duration;

/**
 * A finished reconciliation: the plan that was sent (empty if the switch already held the desired
 * state), the flows and groups the switch held before, and how long it took in all.
 */
public record ReconcileResult(
    long dpid, ReconcilePlan plan, int flowsBefore, int groupsBefore, Duration elapsed) {}
