package org.netpubsub.controller.pubsub;

import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.netpubsub.controller.app.NetworkController;
import org.netpubsub.controller.controlplane.FlowUpdates;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;

/**
 * Configurators' flow changes through the network controller: each batch is carried out on the
 * controller loop (desired state updated, batch and barrier sent) and completes when the switch
 * acknowledges. A batch computed on a topology that has been replaced since is dropped there: the
 * topology change already reconciles every switch to the rebuilt CP-configs, which include it (in a
 * cluster, the partition's own rebuild does). A resync touches only the flows it is given ({@code
 * owned}: one partition's) and leaves the rest of the switch alone — other partitions' flows may
 * belong to other configurators, or to other controller processes.
 */
final class ControllerFlowUpdates implements FlowUpdates {
  private final NetworkController controller;
  private final LongSupplier epoch;

  ControllerFlowUpdates(NetworkController controller, LongSupplier epoch) {
    this.controller = controller;
    this.epoch = epoch;
  }

  @Override
  public CompletableFuture<Void> send(long dpid, List<FlowMod> mods) {
    return send(dpid, mods, epoch.getAsLong());
  }

  @Override
  public CompletableFuture<Void> send(long dpid, List<FlowMod> mods, long computedIn) {
    return controller
        .callOnLoop(
            () -> {
              if (computedIn != epoch.getAsLong()) {
                return CompletableFuture.<Void>completedFuture(null);
              }
              SortedMap<Long, List<FlowMod>> one = new TreeMap<>();
              one.put(dpid, mods);
              return controller.applyChanges(one).<Void>thenApply(n -> null);
            })
        .thenCompose(f -> f);
  }

  @Override
  public CompletableFuture<Void> resync(
      long dpid, Predicate<FlowEntry> owned, List<FlowEntry> desired) {
    return controller.reconcileScoped(dpid, owned, desired);
  }
}
