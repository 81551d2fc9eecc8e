package org.netpubsub.controller.pubsub;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.netpubsub.controller.controlplane.FlowUpdates;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.FlowSpace;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;

/**
 * Configurators' flow changes through the flow service, as {@link Owner#PUBSUB_CONTENT}: each batch
 * is applied on the controller loop (the store updated, batch and barrier sent) and completes when
 * the switch acknowledges. A batch computed on a topology that has been replaced since is dropped
 * there: the topology change already reconciles every switch to the rebuilt CP-configs, which
 * include it (in a cluster, the partition's own rebuild does). A resync touches only the flows it
 * is given ({@code owned}: one partition's) and leaves the rest of the switch alone — other
 * partitions' flows may belong to other configurators, or to other controller processes.
 */
final class ControllerFlowUpdates implements FlowUpdates {
  private static final FlowSpace CONTENT = SwitchLayout.space(Owner.PUBSUB_CONTENT);

  private final FlowService controller;
  private final LongSupplier epoch;

  ControllerFlowUpdates(FlowService controller, LongSupplier epoch) {
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
              SortedMap<Long, List<SwitchMod>> one = new TreeMap<>();
              one.put(dpid, SwitchMod.flows(mods));
              return controller.apply(Owner.PUBSUB_CONTENT, one).<Void>thenApply(n -> null);
            })
        .thenCompose(f -> f);
  }

  @Override
  public CompletableFuture<Void> resync(
      long dpid, Predicate<FlowEntry> owned, List<FlowEntry> desired) {
    return controller
        .callOnLoop(
            () -> {
              // the store's content flows: the partition's become the desired ones
              List<FlowEntry> flows = new ArrayList<>(desired);
              for (FlowEntry f : controller.desired(dpid).flows()) {
                if (CONTENT.contains(f) && !owned.test(f)) {
                  flows.add(f);
                }
              }
              controller.replace(Owner.PUBSUB_CONTENT, dpid, flows, List.of());
              return controller.reconcileScoped(dpid, owned, desired);
            })
        .thenCompose(f -> f);
  }
}
