package org.netpubsub.compiler.target.software;

import java.util.Arrays;
import java.util.BitSet;
import java.util.TreeSet;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.aggregate.Condition;
import org.netpubsub.compiler.aggregate.ConditionalAction;
import org.netpubsub.compiler.aggregate.ConditionalActions;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Filter;

/**
 * The software target at the last hop, where Camus evaluates stateful aggregates (§2): the tables
 * select a group, as {@link SoftwarePipeline} does; then every slot a conditional action of the
 * group names is updated once with this message (count + 1, sum + its argument; "the macro avg
 * stores the current average, which is updated whenever the rest of the filter matches"), and a
 * conditional action forwards to its port when all its comparisons hold on the updated windows. A
 * port is forwarded when a plain action or a satisfied conditional action names it.
 *
 * <p>Time is an argument ({@code nowNanos}, never decreasing); windows are aligned on multiples of
 * their length (see {@link TumblingWindow}). Mutable and not thread-safe: one per switch pipeline,
 * fed messages in order.
 */
public final class StatefulPipeline {
  private final MessageSpec spec;
  private final SoftwarePipeline tables;
  private final ConditionalActions actions;
  private final ConditionalAction[] byOffset; // conditional id − first id → action
  private final TumblingWindow[] windows; // by slot
  private final long[] generationOf; // by slot
  private final BitSet updated = new BitSet();
  private long lastNanos = Long.MIN_VALUE;

  private StatefulPipeline(MessageSpec spec, SoftwarePipeline tables, ConditionalActions actions) {
    this.spec = spec;
    this.tables = tables;
    this.actions = actions;
    int maxId = actions.all().stream().mapToInt(ConditionalAction::id).max().orElse(FIRST - 1);
    this.byOffset = new ConditionalAction[maxId - FIRST + 1];
    this.windows = new TumblingWindow[actions.slotBound()];
    this.generationOf = new long[actions.slotBound()];
    for (ConditionalAction a : actions.all()) {
      byOffset[a.id() - FIRST] = a;
      for (Condition c : a.conditions()) {
        if (windows[c.slot()] == null) {
          windows[c.slot()] = new TumblingWindow(c.windowNanos());
          generationOf[c.slot()] = c.generation();
        }
      }
    }
  }

  private static final int FIRST = org.netpubsub.compiler.rules.Rule.MAX_PORT + 1;

  /** Fresh windows for a compilation's tables and conditional actions. */
  public static StatefulPipeline of(Compilation c) {
    return new StatefulPipeline(
        c.spec(), SoftwarePipeline.of(c.pipeline()), c.conditionalActions());
  }

  /**
   * The pipeline of {@code next}, a later incremental compilation (slots stay with their rule),
   * keeping the clock and the windows of the slots it still has: same slot, same generation. A rule
   * withdrawn and added again starts afresh.
   */
  public StatefulPipeline next(Compilation next) {
    StatefulPipeline p = of(next);
    for (int s = 0; s < Math.min(windows.length, p.windows.length); s++) {
      if (windows[s] != null && p.windows[s] != null && generationOf[s] == p.generationOf[s]) {
        p.windows[s] = windows[s];
      }
    }
    p.lastNanos = lastNanos;
    return p;
  }

  /** The ports an event goes to at {@code nowNanos}, sorted; updates the windows it reaches. */
  public int[] forward(Event event, long nowNanos) {
    return forward(spec.values(event), event::intValue, nowNanos);
  }

  /** An int attribute's value by its position in the schema (an aggregate's argument). */
  @FunctionalInterface
  public interface IntAttributes {
    long value(int position);
  }

  /**
   * The ports a message goes to at {@code nowNanos}, sorted: {@code fieldValues} are its query
   * field values (as {@link MessageSpec#values}), {@code attributes} its int attribute values.
   *
   * @throws IllegalArgumentException when {@code nowNanos} is before an earlier message's
   */
  public int[] forward(long[] fieldValues, IntAttributes attributes, long nowNanos) {
    if (nowNanos < lastNanos) {
      throw new IllegalArgumentException(
          "time went backwards: " + nowNanos + " ns after " + lastNanos + " ns");
    }
    lastNanos = nowNanos;
    int[] reached = tables.actions(fieldValues);
    int first = Arrays.binarySearch(reached, FIRST);
    first = first >= 0 ? first : -first - 1;
    if (first == reached.length) {
      return reached; // plain ports only
    }
    updated.clear();
    for (int i = first; i < reached.length; i++) {
      for (Condition c : action(reached[i]).conditions()) {
        if (!updated.get(c.slot())) {
          updated.set(c.slot());
          Filter.Aggregate a = c.atom();
          long value = a.argument() == null ? 0 : attributes.value(a.argument().position());
          windows[c.slot()].add(nowNanos, value);
        }
      }
    }
    TreeSet<Integer> ports = new TreeSet<>();
    for (int i = 0; i < first; i++) {
      ports.add(reached[i]);
    }
    for (int i = first; i < reached.length; i++) {
      ConditionalAction a = action(reached[i]);
      if (!ports.contains(a.port()) && satisfied(a)) {
        ports.add(a.port());
      }
    }
    return ports.stream().mapToInt(Integer::intValue).toArray();
  }

  /** The conditional actions this pipeline evaluates. */
  public ConditionalActions conditionalActions() {
    return actions;
  }

  private boolean satisfied(ConditionalAction a) {
    for (Condition c : a.conditions()) {
      if (!windows[c.slot()].holds(c.atom())) {
        return false;
      }
    }
    return true;
  }

  private ConditionalAction action(int id) {
    return byOffset[id - FIRST];
  }
}
