package org.netpubsub.controller.app;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.netpubsub.controller.flows.FlowStore;
import org.netpubsub.controller.southbound.DesiredState;
import org.netpubsub.controller.southbound.DesiredStateStore;
import org.netpubsub.controller.southbound.SwitchMod;
import org.netpubsub.network.layout.Owner;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;

/**
 * The naive twin of {@link OwnedStates}' publication (its invariant checker aside): every change
 * rebuilds each touched switch's whole desired state from the store at once and compares it with
 * the published one, as the flow service did before it published per change.
 */
final class EagerOwnedStates {
  private final FlowStore store = new FlowStore();
  private final DesiredStateStore published;
  private final Set<Long> unpublished = new HashSet<>();
  private boolean batching;

  EagerOwnedStates(DesiredStateStore published) {
    this.published = published;
  }

  void register(Owner owner) {
    store.register(owner);
  }

  boolean replace(Owner owner, long dpid, List<FlowEntry> flows, List<GroupEntry> groups) {
    boolean changed = store.replace(owner, dpid, flows, groups);
    if (changed) {
      unpublished.add(dpid);
      if (!batching) {
        publish();
      }
    }
    return changed;
  }

  void apply(Owner owner, Map<Long, List<SwitchMod>> mods) {
    mods.forEach((dpid, l) -> FlowStore.check(owner, dpid, l));
    mods.forEach((dpid, l) -> store.apply(owner, dpid, l));
    unpublished.addAll(mods.keySet());
    publish();
  }

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
      if (!published.get(dpid).equals(Optional.of(want))) {
        published.put(dpid, want);
        changed.add(dpid);
      }
    }
    unpublished.clear();
    return changed;
  }
}
