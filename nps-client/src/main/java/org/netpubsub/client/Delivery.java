package org.netpubsub.client;

import org.netpubsub.content.event.Event;

/**
 * An event that matched the subscriber's exact filter, with its end-to-end latency: the receive
 * time minus the publisher's timestamp (both wall clock, ns since the epoch; across hosts it is
 * only as good as their clock synchronisation).
 */
public record Delivery(Event event, long latencyNanos, long receivedAtNanos) {}
