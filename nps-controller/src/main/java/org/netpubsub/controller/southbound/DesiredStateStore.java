package org.netpubsub.controller.southbound;

import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;

/**
 * The controller's desired state per datapath id (thread-safe). The server reconciles a switch with
 * its entry whenever the switch connects; a switch without an entry is left as it is. The store's
 * {@link ReconcileScope} says which of a switch's entries these states speak for (all by default;
 * in a cluster of controller processes, only this process's share). A state may be put as a
 * supplier that builds it when first read (the flow service's, so that a delta costs per change,
 * not per entry the switch holds); the supplier must be thread-safe.
 */
public final class DesiredStateStore {
  private final ConcurrentMap<Long, Supplier<DesiredState>> states = new ConcurrentHashMap<>();
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
    states.put(dpid, () -> state);
  }

  /** Puts a state built when read: {@code state} is thread-safe and never returns null. */
  public void putLazy(long dpid, Supplier<DesiredState> state) {
    if (state == null) {
      throw new IllegalArgumentException("desired state is required (remove() to forget one)");
    }
    states.put(dpid, state);
  }

  public Optional<DesiredState> get(long dpid) {
    Supplier<DesiredState> s = states.get(dpid);
    return s == null ? Optional.empty() : Optional.of(s.get());
  }

  /** Whether a switch has a desired state (without building it). */
  public boolean contains(long dpid) {
    return states.containsKey(dpid);
  }

  public void remove(long dpid) {
    states.remove(dpid);
  }

  public Set<Long> dpids() {
    return Set.copyOf(states.keySet());
  }
}
