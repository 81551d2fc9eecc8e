package org.netpubsub.controller.app;

import java.util.Collection;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.netpubsub.controller.flows.FlowInvariantException;
import org.netpubsub.controller.flows.FlowStore;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.southbound.DesiredStateStore;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.invariants.FlowInvariants;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.topology.Topology;

/**
 * The flow service's per-owner store and the southbound's desired states read from it: a switch's
 * desired state is rebuilt from the store when an owner's entries on it change (once per batch, not
 * once per owner), never by asking the apps. Loop only.
 *
 * <p>Every owner's batch ({@link #apply}) but the Camus pipeline's is checked by the invariant
 * checker ({@link FlowInvariants}) before the store takes it: the final state of the whole batch,
 * not each mod, so a batch that moves traffic from one path to another (make before break) is
 * judged by where the traffic ends up. The checker keeps an index of every switch's state and takes
 * each batch's net change ({@link FlowStore#change}) into it, once: an accepted batch's change
 * stays (it is what the store then holds), a refused one is undone. A replacement ({@link
 * #replace}) is taken unchecked: it is the response to a topology change, rebuilt switch by switch,
 * whose states in between are not the network's; its switches are re-indexed from the store before
 * the next check or publication.
 */
final class OwnedStates {
  private final FlowStore store = new FlowStore();
  private final DesiredStateStore published;
  private final Set<Long> unpublished = new HashSet<>();
  // replaced since the checker's index last took them; an applied batch's switches never are
  private final Set<Long> stale = new HashSet<>();
  private boolean batching; // a topology change: its end publishes
  private final FlowInvariants invariants; // null when switched off

  /**
   * Not checked: the Camus pipeline. Its field tables match the query address under many masks, so
   * its batches split the ipv6_dst space into more packet classes than the checker walks in time
   * (on the fat-tree test bed a subscription took 24 s and then timed out); checking it needs
   * classes per query field rather than per address.
   */
  private static final Set<Owner> UNCHECKED = EnumSet.of(Owner.CAMUS_PIPELINE);

  /**
   * @param checkInvariants whether batches are checked ({@code false}: for a benchmark of what the
   *     checker costs)
   */
  OwnedStates(DesiredStateStore published, boolean checkInvariants) {
    this.published = published;
    this.invariants =
        checkInvariants ? new FlowInvariants(Topology.EMPTY, ContentFlows.EVENT_PORT) : null;
  }

  /** The topology the checker walks. */
  void topology(Topology t) {
    if (invariants != null) {
      invariants.topology(t);
    }
  }

  void register(Owner owner) {
    store.register(owner);
  }

  /** {@link FlowStore#replace}, published at once unless in a {@link #batch}. */
  boolean replace(Owner owner, long dpid, List<FlowEntry> flows, List<GroupEntry> groups) {
    boolean changed = store.replace(owner, dpid, flows, groups);
    if (changed) {
      unpublished.add(dpid);
      stale.add(dpid);
      if (!batching) {
        publish();
      }
    }
    return changed;
  }

  /**
   * Applies an owner's deltas and publishes them; refuses them all if one mod is outside the
   * owner's space, or if their final state breaks an invariant ({@link FlowInvariantException}).
   */
  void apply(Owner owner, Map<Long, List<SwitchMod>> mods) {
    mods.forEach((dpid, l) -> FlowStore.check(owner, dpid, l));
    if (invariants != null) {
      index(stale);
      Map<Long, FlowInvariants.Change> changes = new TreeMap<>();
      mods.forEach((dpid, l) -> changes.put(dpid, store.change(owner, dpid, l)));
      if (UNCHECKED.contains(owner)) {
        invariants.take(changes);
      } else {
        // taken into the index only if accepted: what publish would index, indexed once
        invariants
            .offer(changes)
            .ifPresent(
                v -> {
                  throw new FlowInvariantException(owner, v);
                });
      }
    }
    mods.forEach((dpid, l) -> store.apply(owner, dpid, l));
    unpublished.addAll(mods.keySet());
    publish();
  }

  /** Brings the checker's index of these switches up to the store (after replacements). */
  private void index(Set<Long> dpids) {
    for (long dpid : dpids) {
      DesiredState want = store.desired(dpid);
      invariants.put(dpid, want.flows(), want.groups());
    }
    dpids.clear();
  }

  /**
   * Runs the updates of a topology change, then publishes the desired state of every switch in
   * {@code all}; the switches whose desired state changed.
   */
  Set<Long> batch(Runnable updates, Collection<Long> all) {
    batching = true;
    try {
      updates.run();
    } finally {
      batching = false;
      unpublished.addAll(all);
    }
    return publish();
  }

  private Set<Long> publish() {
    Set<Long> changed = new HashSet<>();
    for (long dpid : unpublished) {
      DesiredState want = store.desired(dpid);
      if (invariants != null && stale.remove(dpid)) {
        invariants.put(dpid, want.flows(), want.groups());
      }
      if (!published.get(dpid).equals(Optional.of(want))) {
        published.put(dpid, want);
        changed.add(dpid);
      }
    }
    unpublished.clear();
    return changed;
  }
}
