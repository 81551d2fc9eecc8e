package org.netpubsub.controller.app;

import java.util.List;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.topology.Topology;

/**
 * A controller app that adds flows (and groups) to every switch's desired state, beside the base
 * forwarding app's. Both methods run on the controller loop; the app's entries must not collide
 * (table, priority, match) with another app's.
 */
public interface FlowContributor {
  /** The topology changed; afterwards {@link #flows} reflects {@code next}. */
  void topologyChanged(Topology next);

  /**
   * A switch (re)connected; it may have lost its flows. Apps whose flows the switch's reconcile
   * does not manage ({@link ControllerConfig#withReconcileScope}) restore their own.
   */
  default void switchConnected(long dpid) {}

  /** The app's flows for one switch. */
  List<FlowEntry> flows(long dpid);

  /** The app's groups for one switch (ids must not collide with another app's). */
  default List<GroupEntry> groups(long dpid) {
    return List.of();
  }
}
