package org.netpubsub.controller.controlplane;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;

/**
 * Where configurators send their flow changes. The future completes when the switch acknowledges
 * the whole batch (its barrier reply), and only then does a configurator consider the change made
 * (PLEROMA §IV-B). Implementations must accept batches for one switch from several threads.
 */
public interface FlowUpdates {
  CompletableFuture<Void> send(long dpid, List<FlowMod> mods);

  /**
   * {@link #send} of flow-mods computed on the topology of {@code epoch} (see {@link
   * ControlPlane#epoch}); an implementation that re-establishes every switch's state on a topology
   * change may drop batches of an older epoch.
   */
  default CompletableFuture<Void> send(long dpid, List<FlowMod> mods, long epoch) {
    return send(dpid, mods);
  }

  /**
   * After a missing acknowledgement: reads the switch's flows, and brings those {@code owned}
   * selects (one partition's) to exactly {@code desired}; completes when acknowledged.
   */
  CompletableFuture<Void> resync(long dpid, Predicate<FlowEntry> owned, List<FlowEntry> desired);
}
