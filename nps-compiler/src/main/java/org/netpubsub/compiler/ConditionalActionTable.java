package org.netpubsub.compiler;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.compiler.aggregate.Condition;
import org.netpubsub.compiler.aggregate.ConditionalAction;
import org.netpubsub.compiler.aggregate.ConditionalActions;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Filter;

/**
 * Hands out the conditional actions of rules with aggregates and their slots: per rule, one slot
 * per distinct aggregate atom and one action per distinct (port, atoms). Ids and slots freed by
 * withdrawing a rule are reused only after the update (like the tables' state ids), so an update
 * never gives an id that a leaf still names a new meaning. Mutable; part of {@link CompilerState}.
 */
final class ConditionalActionTable {
  private record Key(int port, List<Condition> conditions) {}

  /** What one rule holds. */
  private static final class Owned {
    final Map<Filter.Aggregate, Condition> slots = new LinkedHashMap<>();
    final Map<Key, Integer> actions = new LinkedHashMap<>();
  }

  private final Map<String, Owned> byRule = new HashMap<>();
  private final Map<Integer, ConditionalAction> actions = new HashMap<>();
  private final Ids ids = new Ids(Rule.MAX_PORT + 1);
  private final Ids slots = new Ids(0);
  private long generations;

  /**
   * The leaf actions of conjunction {@code c} of rule {@code r}: its ports when {@code c} has no
   * aggregates, else one conditional action per port.
   */
  int[] actions(Rule r, Conjunction c) {
    if (c.aggregates().isEmpty()) {
      return r.ports();
    }
    Owned o = byRule.computeIfAbsent(r.id(), k -> new Owned());
    List<Condition> conditions = new ArrayList<>();
    for (Filter.Aggregate a : c.aggregates()) {
      conditions.add(
          o.slots.computeIfAbsent(a, k -> new Condition(a, slots.allocate(), ++generations)));
    }
    int[] out = new int[r.ports().length];
    int i = 0;
    for (int port : r.ports()) {
      out[i++] =
          o.actions.computeIfAbsent(
              new Key(port, List.copyOf(conditions)),
              k -> {
                int id = ids.allocate();
                actions.put(id, new ConditionalAction(id, r.id(), port, k.conditions()));
                return id;
              });
    }
    return out;
  }

  /** Frees what rule {@code id} held (nothing if it had no aggregates). */
  void release(String id) {
    Owned o = byRule.remove(id);
    if (o == null) {
      return;
    }
    for (int a : o.actions.values()) {
      actions.remove(a);
      ids.release(a);
    }
    o.slots.values().forEach(c -> slots.release(c.slot()));
  }

  /** The update is done: what it freed may be reused. */
  void endUpdate() {
    ids.endUpdate();
    slots.endUpdate();
  }

  ConditionalActions snapshot() {
    return actions.isEmpty()
        ? ConditionalActions.NONE
        : ConditionalActions.of(actions.values(), slots.bound());
  }

  /** Refuses a rule whose aggregate windows are not a positive number of nanoseconds. */
  static void check(Rule r) {
    for (Conjunction c : r.dnf().conjunctions()) {
      for (Filter.Aggregate a : c.aggregates()) {
        long nanos;
        try {
          nanos = a.window().toNanos();
        } catch (ArithmeticException e) {
          throw new IllegalArgumentException(
              r.id() + " (" + r.filter() + "): the window " + a.window() + " is too long", e);
        }
        if (nanos <= 0) {
          throw new IllegalArgumentException(
              r.id() + " (" + r.filter() + "): an aggregate's window must be positive");
        }
      }
    }
  }

  /** Compact ids: the lowest freed ones first, once the update that freed them is over. */
  private static final class Ids {
    private final Deque<Integer> free = new ArrayDeque<>();
    private final List<Integer> quarantined = new ArrayList<>();
    private int next;

    Ids(int first) {
      next = first;
    }

    int allocate() {
      Integer id = free.pollFirst();
      return id != null ? id : next++;
    }

    void release(int id) {
      quarantined.add(id);
    }

    void endUpdate() {
      free.addAll(quarantined);
      List<Integer> all = new ArrayList<>(free);
      all.sort(null);
      free.clear();
      free.addAll(all);
      quarantined.clear();
    }

    int bound() {
      return next;
    }
  }
}
