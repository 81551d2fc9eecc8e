package org.netpubsub.controller.api;

import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.controlplane.ControlPlaneSettings;
import org.netpubsub.controller.pubsub.PubSubLimits;
import org.netpubsub.controller.pubsub.PubSubService;
import org.netpubsub.network.controlplane.Partitions;

/**
 * The same REST behaviour with the partitioned control plane: 2 configurators over 4 partitions
 * configure requests off the controller loop; answers still come after the switch's barrier.
 */
class PartitionedPubSubApiTest extends PubSubApiTest {
  @Override
  PubSubService attach(NetworkController c, SpatialIndex index, PubSubLimits limits) {
    return PubSubService.attachPartitioned(
        c,
        index,
        limits,
        ControlPlaneSettings.of(2, Partitions.uniform(4))
            .withBalancing(ControlPlaneSettings.Balancing.SPA_LB));
  }

  /** "price > 50000" lies in 2 of the 4 partitions: the pair is set up in each. */
  @Override
  int pathsPerPair() {
    return 2;
  }
}
