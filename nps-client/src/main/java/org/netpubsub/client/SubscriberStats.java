package org.netpubsub.client;

/**
 * Counters of a {@link Subscriber}: datagrams received; events delivered; false positives (decoded,
 * but outside the exact filter: the price of a coarse dz cover); malformed datagrams (not an event
 * of this schema); deliveries dropped because the queue was full.
 */
public record SubscriberStats(
    long received, long delivered, long falsePositives, long malformed, long overflowed) {}
