package org.netpubsub.controller.pubsub;

import java.util.OptionalLong;

/**
 * What the routing engine's configurators carry, for the metrics: requests waiting in their
 * partition queues, partitions migrated so far, and (in a cluster, which has no local queue) this
 * process's requests submitted to the cluster and not yet answered; each empty for an engine
 * without them.
 */
public record ConfiguratorLoad(
    OptionalLong queueDepth, OptionalLong migrations, OptionalLong clusterInFlight) {

  /** The engine's, read from any thread. */
  static ConfiguratorLoad of(RoutingEngine engine) {
    return new ConfiguratorLoad(
        engine.configuratorQueueDepth(),
        engine.configuratorMigrations(),
        engine.clusterRequestsInFlight());
  }
}
