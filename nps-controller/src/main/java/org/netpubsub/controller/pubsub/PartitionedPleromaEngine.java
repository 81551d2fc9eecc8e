package org.netpubsub.controller.pubsub;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.netpubsub.controller.controlplane.ControlPlane;
import org.netpubsub.controller.controlplane.ControlPlaneSettings;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.network.controlplane.ControlRequest;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.topology.Topology;

/**
 * PLEROMA with the partitioned control plane (docs/control-plane.md): requests go to n
 * configurators over k partitions instead of one configurator on the controller loop. Only the
 * loop-side duties run on the loop (topology changes, desired flows).
 */
final class PartitionedPleromaEngine implements RoutingEngine {
  private final ControlPlane plane;

  PartitionedPleromaEngine(FlowService controller, ControlPlaneSettings settings) {
    ControlPlane[] self = new ControlPlane[1];
    this.plane =
        new ControlPlane(
            Topology.EMPTY,
            settings,
            new ControllerFlowUpdates(controller, () -> self[0].epoch()),
            null);
    self[0] = plane;
  }

  @Override
  public String name() {
    return "pleroma";
  }

  @Override
  public void topologyChanged(Topology next) {
    if (!next.equals(plane.topology())) {
      plane.topologyChanged(next);
    }
  }

  @Override
  public OptionalLong configuratorQueueDepth() {
    long n = 0;
    for (Map<?, Integer> owned : plane.queueLengths()) {
      n += owned.values().stream().mapToLong(Integer::longValue).sum();
    }
    return OptionalLong.of(n);
  }

  @Override
  public OptionalLong configuratorMigrations() {
    return OptionalLong.of(plane.migrations());
  }

  @Override
  public List<FlowEntry> flows(long dpid) {
    return plane.flows(dpid);
  }

  @Override
  public CompletableFuture<RequestOutcome> submit(PubSubRequest r, boolean withdraw, long start) {
    if (!withdraw) {
      RoutingEngine.checkAddition(plane.topology(), r);
    }
    ControlRequest add = RoutingEngine.addition(r);
    return plane
        .submit(withdraw ? add.withdrawal() : add)
        .thenApply(
            d -> new RequestOutcome(r, d.flowMods(), d.switches(), d.paths(), d.latencyNanos()));
  }

  @Override
  public void close() {
    plane.close();
  }
}
