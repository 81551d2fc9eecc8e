package org.netpubsub.controller.pubsub;

import java.util.OptionalLong;

/**
 * What the routing engine's configurators carry, for the metrics: requests waiting in their
 * partition queues, and partitions migrated so far; each empty for an engine without them.
 */
public record ConfiguratorLoad(OptionalLong queueDepth, OptionalLong migrations) {}
