package org.netpubsub.controller.multicast;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.netpubsub.controller.flows.FlowService;
import org.netpubsub.controller.flows.FlowStore;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.southbound.Reconciler;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.multicast.GroupForwarding;
import org.netpubsub.network.multicast.GroupSpec;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The controller app behind {@code /v1/groups}: keeps every group's trees and segments in a {@link
 * GroupForwarding} (touched only on the controller loop), writes the switches' multicast flows and
 * groups through the {@link FlowService} as {@link Owner#MULTICAST_GROUPS}, and brings the switches
 * whose state changed in line before a request completes. A request (put, remove, avoid) applies
 * only its delta: per changed switch, the ops from the entries the service stores for this owner to
 * the new ones ({@link #delta}). A topology change replaces the entries and the service reconciles;
 * a takeover in a cluster ({@link #startWriting}, {@link #stopWriting}) replaces and reconciles,
 * since another process wrote the switches before. A switch that is not connected gets its state
 * when it connects.
 */
public final class MulticastGroups implements FlowService.Listener {
  private final FlowService controller;
  private GroupForwarding forwarding = new GroupForwarding(Topology.EMPTY); // loop only
  private Topology topology = Topology.EMPTY; // loop only
  private volatile boolean writing = true;
  private volatile int maxGroups = MAX_GROUPS;

  /** Groups at most, by default: each costs flows and group entries on its tree's switches. */
  public static final int MAX_GROUPS = 4_096;

  private MulticastGroups(FlowService controller) {
    this.controller = controller;
  }

  /** Starts the app on a controller. */
  public static MulticastGroups attach(FlowService controller) {
    MulticastGroups g = new MulticastGroups(controller);
    controller.register(Owner.MULTICAST_GROUPS, g).join();
    return g;
  }

  /** Sets the cap on the number of groups (tests use a small one); returns this. */
  public MulticastGroups maxGroups(int n) {
    this.maxGroups = n;
    return this;
  }

  /** The cap on the number of groups. */
  public int maxGroups() {
    return maxGroups;
  }

  /** The refusal of a new group when there are {@code cap} already (a cluster's registry too). */
  public static TooManyGroups tooMany(int cap) {
    return new TooManyGroups(
        "there are " + cap + " multicast groups already (the limit of groups)");
  }

  /**
   * Creates or replaces a group; completes once the switches hold its trees, or with {@link
   * TooManyGroups} for a new group beyond the cap.
   */
  public CompletableFuture<GroupForwarding.Placement> put(GroupSpec spec) {
    return controller
        .callOnLoop(
            () -> {
              int cap = maxGroups;
              if (forwarding.placement(spec.name()).isEmpty() && forwarding.specs().size() >= cap) {
                throw tooMany(cap);
              }
              Set<Long> changed = forwarding.put(spec);
              GroupForwarding.Placement p = forwarding.placement(spec.name()).orElseThrow();
              return applyDelta(changed).thenApply(v -> p);
            })
        .thenCompose(f -> f);
  }

  /** Removes a group; completes with false if there was none. */
  public CompletableFuture<Boolean> remove(String name) {
    return controller
        .callOnLoop(
            () -> {
              boolean known = forwarding.placement(name).isPresent();
              return applyDelta(forwarding.remove(name)).thenApply(v -> known);
            })
        .thenCompose(f -> f);
  }

  /** Moves the trees off these links (traffic engineering); completes once the switches follow. */
  public CompletableFuture<Void> avoid(Set<Link> links) {
    return controller.callOnLoop(() -> applyDelta(forwarding.avoid(links))).thenCompose(f -> f);
  }

  public CompletableFuture<Optional<GroupForwarding.Placement>> placement(String name) {
    return controller.callOnLoop(() -> forwarding.placement(name));
  }

  /** Every group as embedded now, and the number of segments installed. */
  public CompletableFuture<Snapshot> snapshot() {
    return controller.callOnLoop(
        () -> {
          List<GroupForwarding.Placement> all = new ArrayList<>();
          forwarding.specs().forEach(s -> all.add(forwarding.placement(s.name()).orElseThrow()));
          return new Snapshot(all, forwarding.segmentCount(), forwarding.avoidedLinks());
        });
  }

  /** A new group beyond {@link #maxGroups}: the REST layer answers 429 with the message. */
  public static final class TooManyGroups extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooManyGroups(String message) {
      super(message);
    }
  }

  /** Every group, the segments they share, and the links the trees avoid. */
  public record Snapshot(
      List<GroupForwarding.Placement> groups, int segments, Set<Link> avoidedLinks) {}

  /**
   * On the loop: applies to the changed switches only the ops from their stored multicast entries
   * to the new ones; completes once the connected ones acknowledged.
   */
  private CompletableFuture<Void> applyDelta(Collection<Long> dpids) {
    SortedMap<Long, List<SwitchMod>> ops = new TreeMap<>(SwitchPort.DPID_ORDER);
    for (long dpid : dpids) {
      List<SwitchMod> d = delta(controller.owned(Owner.MULTICAST_GROUPS, dpid), entries(dpid));
      if (!d.isEmpty()) {
        ops.put(dpid, d);
      }
    }
    return controller.apply(Owner.MULTICAST_GROUPS, ops).thenApply(n -> null);
  }

  /**
   * The ops that turn an owner's entries {@code before} into {@code after}, in the order a switch
   * takes them (the reconciler's: a group before what names it, flows before the groups they name
   * go). Pure.
   */
  static List<SwitchMod> delta(FlowStore.Owned before, DesiredState after) {
    return Reconciler.plan(after, before.flows(), before.groups()).mods();
  }

  /** The switch's multicast entries now: none while another process writes them. */
  private DesiredState entries(long dpid) {
    return writing
        ? new DesiredState(forwarding.flows(dpid), forwarding.groups(dpid))
        : DesiredState.EMPTY;
  }

  /** On the loop: stores the switches' new multicast state and reconciles them to it. */
  private CompletableFuture<Void> sync(Collection<Long> dpids) {
    dpids.forEach(this::store);
    return CompletableFuture.allOf(
        dpids.stream().map(controller::reconcile).toArray(CompletableFuture[]::new));
  }

  private void store(long dpid) {
    DesiredState e = entries(dpid);
    controller.replace(Owner.MULTICAST_GROUPS, dpid, e.flows(), e.groups());
  }

  /**
   * In a cluster of controller processes, one writes the multicast state: this one starts writing
   * with {@code specs} (in any order: segment indices and entry SIDs are hashes of their content),
   * numbering entry SIDs from {@code entrySidBase} (its own range, so no address its predecessor
   * handed out means another tree now); completes once every switch holds them.
   */
  public CompletableFuture<Void> startWriting(List<GroupSpec> specs, int entrySidBase) {
    return controller
        .callOnLoop(
            () -> {
              forwarding = new GroupForwarding(topology, entrySidBase);
              specs.forEach(forwarding::put);
              writing = true;
              return sync(topology.switches());
            })
        .thenCompose(f -> f);
  }

  /**
   * Another process writes the multicast state: this one keeps no groups and wants none on the
   * switches (its reconciles leave them alone: ReconcileScope).
   */
  public CompletableFuture<Void> stopWriting() {
    return controller
        .callOnLoop(
            () -> {
              writing = false;
              forwarding = new GroupForwarding(topology);
              return sync(topology.switches());
            })
        .thenCompose(f -> f);
  }

  @Override
  public void topologyChanged(Topology next) {
    topology = next;
    forwarding.topologyChanged(next);
    next.switches().forEach(this::store);
  }
}
