package org.netpubsub.controller.pubsub;

import java.util.List;
import java.util.SortedMap;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.topology.Topology;

/**
 * Routing computed on the controller loop, one request at a time: PLEROMA's configurator on a
 * spanning tree ({@link PleromaEngine}) or Camus's compiled pipelines on a fat tree ({@link
 * CamusEngine}). {@link LoopEngine} runs it as a {@link RoutingEngine}. Every method runs on the
 * controller loop.
 */
interface LoopRouting {
  /** What clients are told ({@code GET /v1/pubsub} "routing"). */
  String name();

  /** The owner of the switch layout the routing writes as. */
  default Owner owner() {
    return Owner.PUBSUB_CONTENT;
  }

  /** The topology changed: afterwards {@link #flows} and {@link #groups} reflect it. */
  void topologyChanged(Topology next);

  /** {@link RoutingEngine#coversByCells}: false where the routing compiles filters itself. */
  default boolean coversByCells() {
    return true;
  }

  /** Why requests cannot be configured now ({@link Refused.NotReady}), or null when they can. */
  String notReady();

  /**
   * A request joins: the switch messages it causes. RequestRefusedException when it cannot (an
   * unknown host: {@link Refused.Conflict}).
   */
  Effect add(PubSubRequest r);

  /** A live request leaves. */
  Effect remove(PubSubRequest r);

  /**
   * Requests that stood before a restart join without any switch message (the switches still hold
   * their flows); the next {@link #topologyChanged} compiles them in. Every routing on the loop
   * implements it (a store restores PLEROMA and Camus alike): no throwing default.
   */
  void restore(List<PubSubRequest> standing);

  List<FlowEntry> flows(long dpid);

  /**
   * An empty routing of the same kind on the same topology whose content flows match events sent to
   * {@code eventPort} (a layout switch builds it beside this one); null when the routing cannot
   * hold two layouts side by side.
   */
  default LoopRouting emptyOnPort(int eventPort) {
    return null;
  }

  /**
   * Entries that stand beside {@link #flows} while a layout switch replaces this routing, from
   * before the new layout's flows are sent until this routing's {@link #retirement} deletes them
   * with its flows (PLEROMA: the guard of its event port, {@code ContentFlows.guard}).
   */
  default List<FlowEntry> guards(long dpid) {
    return List.of();
  }

  /**
   * The messages that delete all of {@link #flows} and {@link #guards} on a switch (after a layout
   * switch, the old layout's): one strict delete per flow, unless the routing can select them all
   * at once.
   */
  default List<FlowMod> retirement(long dpid) {
    return java.util.stream.Stream.concat(flows(dpid).stream(), guards(dpid).stream())
        .map(FlowMod::deleteStrict)
        .toList();
  }

  default List<GroupEntry> groups(long dpid) {
    return List.of();
  }

  /**
   * Per switch the messages of one request (in the order to send them) and how many publisher–
   * subscriber paths it set up or tore down (0 where the routing has no such notion).
   */
  record Effect(SortedMap<Long, List<SwitchMod>> mods, int paths) {
    public int messages() {
      return mods.values().stream().mapToInt(List::size).sum();
    }
  }
}
