package org.netpubsub.controller.southbound;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The controller's desired state per datapath id (thread-safe). The server reconciles a switch with
 * its entry whenever the switch connects; a switch without an entry is left as it is. The store's
 * {@link ReconcileScope} says which of a switch's entries these states speak for (all by default;
 * in a cluster of controller processes, only this process's share).
 */
public final class DesiredStateStore {
  private final ConcurrentMap<Long, DesiredState> states = new ConcurrentHashMap<>();
  private final ReconcileScope scope;

  public DesiredStateStore() {
    this(ReconcileScope.EVERYTHING);
  }

  public DesiredStateStore(ReconcileScope scope) {
    if (scope == null) {
      throw new IllegalArgumentException("a reconcile scope is required");
    }
    this.scope = scope;
  }

  /** What a reconcile to these states manages on a switch. */
  public ReconcileScope scope() {
    return scope;
  }

  public void put(long dpid, DesiredState state) {
    if (state == null) {
      throw new IllegalArgumentException("desired state is required (remove() to forget one)");
    }
    states.put(dpid, state);
  }

  public Optional<DesiredState> get(long dpid) {
    return Optional.ofNullable(states.get(dpid));
  }

  public void remove(long dpid) {
    states.remove(dpid);
  }

  public Set<Long> dpids() {
    return Set.copyOf(states.keySet());
  }
}
