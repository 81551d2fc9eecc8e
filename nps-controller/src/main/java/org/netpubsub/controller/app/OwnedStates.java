package org.netpubsub.controller.app;

import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.netpubsub.controller.flows.FlowInvariantException;
import org.netpubsub.controller.flows.FlowStore;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.southbound.DesiredStateStore;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.camus.openflow.QueryAddressLayout;
import org.netpubsub.network.invariants.FlowInvariants;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.pleroma.ContentFlows;
import org.netpubsub.network.topology.Topology;

/**
 * The flow service's per-owner store and the southbound's desired states read from it, never by
 * asking the apps. Loop only, but for the published states' reads.
 *
 * <p>A switch's published desired state is a {@link Snapshot} of the store, built when first read
 * (a reconcile, the REST API) and dropped when an owner's entries on the switch change: an applied
 * batch costs per change, not per entry the switch holds (rebuilding, checking and comparing the
 * whole state per request was most of a request's time on the loop). The store is written and the
 * snapshots built under one lock, so a reader sees the state between two batches, never inside one.
 * During a topology change ({@link #batch}) a switch's snapshot is frozen at its state before the
 * change until the change is published, and compared then: the switches whose state changed.
 *
 * <p>Every owner's batch ({@link #apply}) but the ingress entries' (and the Camus pipeline's with
 * {@link #CHECK_CAMUS} false) is checked by the invariant checker ({@link FlowInvariants}) before
 * the store takes it (the Camus pipeline's over its query addresses as regions): the final state of
 * the whole batch, not each mod, so a batch that moves traffic from one path to another (make
 * before break) is judged by where the traffic ends up. The checker keeps an index of every
 * switch's state and takes each batch's net change ({@link FlowStore#change}) into it, once: an
 * accepted batch's change stays (it is what the store then holds), a refused one is undone. A
 * replacement ({@link #replace}) is taken unchecked: it is the response to a topology change,
 * rebuilt switch by switch, whose states in between are not the network's; its switches are
 * re-indexed from the store before the next check or publication.
 */
final class OwnedStates {
  private final Object lock = new Object(); // the store's writes and the snapshots' builds
  private final FlowStore store = new FlowStore();
  private final DesiredStateStore published;
  private final Map<Long, Snapshot> snapshots = new HashMap<>();
  private final Set<Long> unpublished = new HashSet<>();
  // replaced since the checker's index last took them; an applied batch's switches never are
  private final Set<Long> stale = new HashSet<>();
  private boolean batching; // a topology change: its end publishes
  private final FlowInvariants invariants; // null when switched off

  /** One switch's published state: built from the store when read, until the next change. */
  private final class Snapshot implements Supplier<DesiredState> {
    private final long dpid;
    private DesiredState value; // guarded by lock; null: build when read
    private boolean frozen; // guarded by lock; in a topology change: value is the state before

    Snapshot(long dpid, DesiredState value) {
      this.dpid = dpid;
      this.value = value;
    }

    @Override
    public DesiredState get() {
      synchronized (lock) {
        if (value == null) {
          value = store.desired(dpid);
        }
        return value;
      }
    }
  }

  /**
   * Checks the Camus pipeline's batches: on by default since stop 45 (the Camus test bed takes as
   * long with it as without, docs/results/invariants-camus-ranges.md); {@code
   * -Dnps.invariants.camus=false} turns it off.
   */
  public static final String CHECK_CAMUS = "nps.invariants.camus";

  /**
   * Not checked: the ingress entries, and the Camus pipeline with CHECK_CAMUS false. The ingress
   * entries only drop, or hand a port's allowed boxes to the pipeline's first table unchanged, so
   * they add no loop; under Camus their boxes split the space as the pipeline's masks do (an
   * advertisement on the fat-tree test bed took 7-30 s walking them). The Camus pipeline's field
   * tables match the query address under many masks, which split ipv6_dst into more classes of
   * every field than the checker walks in time (on the fat-tree test bed a subscription took 24 s,
   * then timed out), so it is walked as regions (BY_REGION), one cut per range since stop 44.
   */
  private static final Set<Owner> UNCHECKED =
      Boolean.parseBoolean(System.getProperty(CHECK_CAMUS, "true"))
          ? EnumSet.of(Owner.INGRESS)
          : EnumSet.of(Owner.CAMUS_PIPELINE, Owner.INGRESS);

  /**
   * Checked over its query addresses as regions ({@link FlowInvariants#offerRegion}), cut only by
   * the fields a lookup on their path tests: the Camus pipeline, when checked.
   */
  private static final Set<Owner> BY_REGION = EnumSet.of(Owner.CAMUS_PIPELINE);

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
    synchronized (lock) {
      store.register(owner);
    }
  }

  /** {@link FlowStore#replace}, published at once unless in a {@link #batch}. */
  boolean replace(Owner owner, long dpid, List<FlowEntry> flows, List<GroupEntry> groups) {
    freeze(dpid);
    boolean changed;
    synchronized (lock) {
      changed = store.replace(owner, dpid, flows, groups);
      if (changed) {
        drop(dpid);
      }
    }
    if (changed) {
      Snapshot s = snapshots.get(dpid);
      if (s != null && !batching) {
        s.get(); // a replacement is whole, so it costs per entry anyway: built and checked now
      }
      unpublished.add(dpid);
      stale.add(dpid);
      if (!batching) {
        publish();
      }
    }
    return changed;
  }

  /** {@link FlowStore#owned}. */
  FlowStore.Owned owned(Owner owner, long dpid) {
    synchronized (lock) {
      return store.owned(owner, dpid);
    }
  }

  /**
   * Applies an owner's deltas and publishes them; refuses them all if one mod is outside the
   * owner's space, or if their final state breaks an invariant ({@link FlowInvariantException}).
   */
  void apply(Owner owner, Map<Long, List<SwitchMod>> mods) {
    mods.forEach((dpid, l) -> FlowStore.check(owner, dpid, l));
    Map<Long, FlowInvariants.Change> changes = new TreeMap<>();
    mods.forEach((dpid, l) -> changes.put(dpid, store.change(owner, dpid, l)));
    // what building each switch's whole desired state used to refuse, per change
    changes.forEach((dpid, c) -> store.checkConsistent(owner, dpid, c));
    if (invariants != null) {
      index(stale);
      if (UNCHECKED.contains(owner)) {
        invariants.take(changes);
      } else {
        // taken into the index only if accepted: what publish would index, indexed once
        (BY_REGION.contains(owner)
                ? invariants.offerRegion(changes, QueryAddressLayout.prefix())
                : invariants.offer(changes))
            .ifPresent(
                v -> {
                  throw new FlowInvariantException(owner, v);
                });
      }
    }
    mods.keySet().forEach(this::freeze);
    synchronized (lock) {
      mods.forEach(
          (dpid, l) -> {
            store.apply(owner, dpid, l);
            drop(dpid);
          });
    }
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

  /** In a topology change, before a switch's entries change: its readers keep the state before. */
  private void freeze(long dpid) {
    Snapshot s = snapshots.get(dpid);
    if (batching && s != null) {
      s.get();
      synchronized (lock) {
        s.frozen = true;
      }
      unpublished.add(dpid); // thawed by the next publication, even if the change fails
    }
  }

  /** After a switch's entries changed (under the lock): its snapshot is rebuilt when next read. */
  private void drop(long dpid) {
    Snapshot s = snapshots.get(dpid);
    if (s != null && !s.frozen) {
      s.value = null;
    }
  }

  /**
   * Publishes the unpublished switches: a first state, or a frozen one's new state. The switches
   * whose desired state changed by it (those changed outside a topology change were published as
   * they changed, and are not counted).
   */
  private Set<Long> publish() {
    Set<Long> changed = new HashSet<>();
    for (long dpid : unpublished) {
      Snapshot s = snapshots.get(dpid);
      if (s == null) {
        s = new Snapshot(dpid, store.desired(dpid));
        snapshots.put(dpid, s);
        published.putLazy(dpid, s);
        changed.add(dpid);
      } else if (s.frozen) {
        DesiredState want = store.desired(dpid);
        synchronized (lock) {
          if (!want.equals(s.value)) {
            changed.add(dpid);
          }
          s.value = want;
          s.frozen = false;
        }
      }
      if (invariants != null && stale.remove(dpid)) {
        DesiredState want = s.get();
        invariants.put(dpid, want.flows(), want.groups());
      }
    }
    unpublished.clear();
    return changed;
  }
}
