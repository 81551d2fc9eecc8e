package org.netpubsub.controller.flows;

import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.topology.Topology;

/**
 * What the controller's apps write switches through (ONOS's FlowRuleService as model). Each app
 * writes as one {@link Owner}, only inside that owner's {@link
 * org.netpubsub.network.layout.SwitchLayout} space; the service keeps every owner's entries in a
 * per-owner store, and a switch's desired state is read from that store — reconciling a switch
 * never calls an app back.
 *
 * <p>Threading, once for every method: the service runs one single-threaded loop (the controller
 * loop). {@link #apply}, {@link #replace} and the {@link Listener} callbacks run on it; call {@link
 * #apply} and {@link #replace} from the loop only ({@link #callOnLoop} gets there). {@link
 * #desired}, {@link #topology} and {@link #connectedSwitches} are safe from any thread. The futures
 * complete on southbound threads: continue on the loop through {@link #callOnLoop} before touching
 * loop state. In the network controller the loop is also the switches' event loop, so a batch it
 * applies is written at once and its acknowledgement completes {@link #apply}'s future on that
 * thread: a continuation must never block (it would stall the loop and every switch's I/O).
 */
public interface FlowService {
  /** An owner's view of the network, called on the loop. */
  interface Listener {
    /**
     * The topology changed (or the listener was just registered); the owner brings its entries in
     * line with {@link #replace}, and the switches whose desired state changed are reconciled.
     */
    void topologyChanged(Topology next);

    /**
     * A switch (re)connected; it may have lost its flows. Owners whose flows the switch's reconcile
     * does not manage (a cluster's content flows) restore their own.
     */
    default void switchConnected(long dpid) {}
  }

  /** Registers an owner's listener: it is told the current topology at once. */
  CompletableFuture<Void> register(Owner owner, Listener listener);

  /**
   * Applies an owner's deltas (per switch, in order): the store takes them, and each connected
   * switch gets its batch followed by a barrier. Completes with the number of switches the batches
   * went to once each acknowledged; a switch not connected, or whose connection drops before it
   * acknowledges, gets the state when it connects (not a failure). Fails with {@link
   * FlowRefusedException}, before anything changed, if a mod is outside the owner's space; fails if
   * a switch refuses or does not answer in time (it is then reconciled). On the loop.
   */
  CompletableFuture<Integer> apply(Owner owner, SortedMap<Long, List<SwitchMod>> ops);

  /**
   * Replaces an owner's whole entries on one switch in the store (after a topology change, or for
   * an owner that keeps no deltas); nothing is sent — {@link #reconcile} does, or the topology
   * change that asked for it. Whether the entries changed. On the loop.
   */
  boolean replace(Owner owner, long dpid, List<FlowEntry> flows, List<GroupEntry> groups);

  /**
   * Brings one switch to its desired state (reads its flows, sends the difference); completes when
   * done, at once for a switch that is not connected (it is reconciled when it connects).
   */
  CompletableFuture<Void> reconcile(long dpid);

  /**
   * Brings the flows {@code scope} selects on one switch to exactly {@code desired}, leaving every
   * other flow and group alone; completes when acknowledged, at once for a switch that is not
   * connected. For an owner that is the only writer of its flows (a partition of the control plane
   * after a missing acknowledgement or a takeover).
   */
  CompletableFuture<Void> reconcileScoped(
      long dpid, Predicate<FlowEntry> scope, List<FlowEntry> desired);

  /**
   * One owner's entries on one switch, as stored: what an owner's delta starts from (the owner need
   * not keep a copy). On the loop.
   */
  FlowStore.Owned owned(Owner owner, long dpid);

  /** Every owner's entries for one switch, as last stored (empty for an unknown switch). */
  DesiredState desired(long dpid);

  /** Computes a value on the loop. */
  <T> CompletableFuture<T> callOnLoop(Supplier<T> task);

  /** The current topology (a snapshot). */
  Topology topology();

  /** The datapath ids of the connected switches. */
  Set<Long> connectedSwitches();
}
