package org.netpubsub.compiler.aggregate;

import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.compiler.rules.Rule;

/**
 * The conditional actions of a compilation, by id: what a leaf's action id above {@link
 * Rule#MAX_PORT} means. A stateless target (OpenFlow) maps each to its port with {@link #portOf}, a
 * superset of what the stateful evaluation forwards. Immutable.
 */
public final class ConditionalActions {
  public static final ConditionalActions NONE = new ConditionalActions(new TreeMap<>(), 0);

  private final Map<Integer, ConditionalAction> byId;
  private final int slotBound;

  private ConditionalActions(Map<Integer, ConditionalAction> byId, int slotBound) {
    this.byId = Collections.unmodifiableMap(byId);
    this.slotBound = slotBound;
  }

  /**
   * @param slotBound one more than the largest slot in use (the register arrays' size)
   */
  public static ConditionalActions of(Collection<ConditionalAction> actions, int slotBound) {
    Map<Integer, ConditionalAction> m = new TreeMap<>();
    for (ConditionalAction a : actions) {
      if (m.put(a.id(), a) != null) {
        throw new IllegalArgumentException("two conditional actions have the id " + a.id());
      }
      for (Condition c : a.conditions()) {
        if (c.slot() >= slotBound) {
          throw new IllegalArgumentException("slot " + c.slot() + " is beyond " + slotBound);
        }
      }
    }
    return new ConditionalActions(m, slotBound);
  }

  /** Whether an action id is a conditional action (else it is a port). */
  public static boolean isConditional(int actionId) {
    return actionId > Rule.MAX_PORT;
  }

  /** The port an action id forwards to: itself for a port, its port for a conditional action. */
  public int portOf(int actionId) {
    if (!isConditional(actionId)) {
      return actionId;
    }
    return get(actionId)
        .orElseThrow(() -> new IllegalArgumentException("no conditional action " + actionId))
        .port();
  }

  /** The ports a set of action ids may forward to, sorted and distinct: the stateless superset. */
  public int[] ports(int[] actionIds) {
    TreeSet<Integer> out = new TreeSet<>();
    for (int a : actionIds) {
      out.add(portOf(a));
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  public Optional<ConditionalAction> get(int id) {
    return Optional.ofNullable(byId.get(id));
  }

  /** Every conditional action, by ascending id. */
  public Collection<ConditionalAction> all() {
    return byId.values();
  }

  public boolean isEmpty() {
    return byId.isEmpty();
  }

  public int size() {
    return byId.size();
  }

  /** One more than the largest slot in use: the register arrays' size. */
  public int slotBound() {
    return slotBound;
  }
}
