package org.netpubsub.compiler.target.software;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.netpubsub.compiler.pipeline.FieldEntry;
import org.netpubsub.compiler.pipeline.Group;
import org.netpubsub.compiler.pipeline.LeafEntry;
import org.netpubsub.compiler.pipeline.Match;
import org.netpubsub.compiler.pipeline.Pipeline;

/**
 * The tables run in software, exactly as a switch runs them: state 0, then each field's table
 * (match on state and field value; no match keeps the state), then the leaf table. Built once from
 * a pipeline; lookups use primitive arrays only — a hash per exact table, a branch-free binary
 * search per range table — and skip tables without entries (they keep every state). Immutable and
 * thread-safe once built.
 */
public final class SoftwarePipeline {
  private final FieldLookup[] tables;
  private final int[] fieldOfTable;
  private final int[] groupOfState; // per dense state: a group's dense index, or −1
  private final int[] groupIds; // per dense group index: the group's id
  private final int[][] actionsOfGroup; // per dense group index

  private SoftwarePipeline(
      FieldLookup[] tables,
      int[] fieldOfTable,
      int[] groupOfState,
      int[] groupIds,
      int[][] actionsOfGroup) {
    this.tables = tables;
    this.fieldOfTable = fieldOfTable;
    this.groupOfState = groupOfState;
    this.groupIds = groupIds;
    this.actionsOfGroup = actionsOfGroup;
  }

  public static SoftwarePipeline of(Pipeline p) {
    // The arrays below are indexed by state and group. Compact ids index them as they are; ids from
    // content (CompileOptions.withContentIds) are sparse, up to 2³¹, and are numbered densely
    // first, in the order of the ids (the root's 0 stays 0).
    int entries = p.entries();
    int[] states = p.stateBound() <= 2 * entries + 64 ? null : stateIds(p);
    List<List<FieldEntry>> tableEntries = new ArrayList<>();
    for (int f = 0; f < p.spec().fields().size(); f++) {
      List<FieldEntry> l = new ArrayList<>(p.table(f));
      if (states != null) {
        l.replaceAll(
            e -> new FieldEntry(index(states, e.state()), e.match(), index(states, e.next())));
      }
      tableEntries.add(l);
    }
    int[] groupIds = p.groups().stream().mapToInt(Group::id).sorted().toArray();
    int[][] actions = new int[groupIds.length][];
    for (Group g : p.groups()) {
      actions[index(groupIds, g.id())] = g.actions();
    }
    int stateCount = states == null ? p.stateBound() : states.length;
    List<FieldLookup> tables = new ArrayList<>();
    List<Integer> fields = new ArrayList<>();
    for (int f = 0; f < tableEntries.size(); f++) {
      if (!tableEntries.get(f).isEmpty()) {
        tables.add(FieldLookup.of(tableEntries.get(f), stateCount));
        fields.add(f);
      }
    }
    int[] groupOfState = new int[stateCount];
    Arrays.fill(groupOfState, -1);
    for (LeafEntry e : p.leafTable()) {
      groupOfState[states == null ? e.state() : index(states, e.state())] =
          index(groupIds, e.group());
    }
    return new SoftwarePipeline(
        tables.toArray(FieldLookup[]::new),
        fields.stream().mapToInt(Integer::intValue).toArray(),
        groupOfState,
        groupIds,
        actions);
  }

  /** Every state id the tables use, the root's 0 included: sorted, distinct. */
  private static int[] stateIds(Pipeline p) {
    int[] ids = new int[2 * p.entries() + 1];
    int n = 1; // ids[0] = 0, the root
    for (int f = 0; f < p.spec().fields().size(); f++) {
      for (FieldEntry e : p.table(f)) {
        ids[n++] = e.state();
        ids[n++] = e.next();
      }
    }
    for (LeafEntry e : p.leafTable()) {
      ids[n++] = e.state();
    }
    ids = Arrays.copyOf(ids, n);
    Arrays.sort(ids);
    return Arrays.stream(ids).distinct().toArray();
  }

  /** The dense number of {@code id} among the sorted {@code ids}. */
  private static int index(int[] ids, int id) {
    int i = Arrays.binarySearch(ids, id);
    if (i < 0) {
      throw new IllegalArgumentException("id " + id + " is in no table");
    }
    return i;
  }

  /** The id of the group a message with these field values reaches, or −1 (dropped). */
  public int group(long[] values) {
    int g = groupIndex(values);
    return g < 0 ? -1 : groupIds[g];
  }

  private int groupIndex(long[] values) {
    int state = 0;
    FieldLookup[] t = tables;
    for (int i = 0; i < t.length; i++) {
      state = t[i].next(state, values[fieldOfTable[i]]);
    }
    return state < groupOfState.length ? groupOfState[state] : -1;
  }

  /**
   * The actions for a message, sorted; empty when dropped. They are ports, and for rules with
   * aggregates conditional action ids, which {@link StatefulPipeline} evaluates.
   */
  public int[] actions(long[] values) {
    int g = groupIndex(values);
    return g < 0 ? new int[0] : actionsOfGroup[g].clone();
  }

  /** One field table: per state, sorted disjoint ranges, or exact values plus a default. */
  private abstract static class FieldLookup {
    abstract int next(int state, long value);

    static FieldLookup of(java.util.Collection<FieldEntry> entries, int states) {
      boolean exact = entries.stream().anyMatch(e -> e.match() instanceof Match.Any);
      boolean ranges = entries.stream().anyMatch(e -> e.match() instanceof Match.Range);
      return exact && !ranges ? new Exact(entries, states) : new Ranges(entries, states);
    }
  }

  private static final class Exact extends FieldLookup {
    private final ExactTable values;
    private final int[] defaults;

    Exact(java.util.Collection<FieldEntry> entries, int states) {
      values = new ExactTable(entries.size());
      defaults = new int[states];
      Arrays.fill(defaults, -1);
      for (FieldEntry e : entries) {
        switch (e.match()) {
          case Match.Value v -> values.put(e.state(), v.value(), e.next());
          case Match.Any a -> defaults[e.state()] = e.next();
          case Match.Range r -> throw new AssertionError("range in an exact table");
        }
      }
    }

    @Override
    int next(int state, long value) {
      int n = values.get(state, value);
      if (n >= 0) {
        return n;
      }
      int d = state < defaults.length ? defaults[state] : -1;
      return d >= 0 ? d : state;
    }
  }

  /**
   * Per state, the breakpoints of its disjoint ranges, flattened into one array: a range [lo, hi]
   * starts a stretch leading to its next state at lo, and unless the next range starts at hi + 1, a
   * stretch that keeps the state starts at hi + 1. A lookup finds the last breakpoint at or below
   * the value. Keys are stored sign-flipped so that signed comparison is unsigned order.
   */
  private static final class Ranges extends FieldLookup {
    private final int[] first;
    private final long[] keys;
    private final int[] nexts;

    Ranges(java.util.Collection<FieldEntry> entries, int states) {
      List<List<FieldEntry>> byState = new ArrayList<>(states);
      for (int s = 0; s < states; s++) {
        byState.add(null);
      }
      for (FieldEntry e : entries) {
        if (byState.get(e.state()) == null) {
          byState.set(e.state(), new ArrayList<>());
        }
        byState.get(e.state()).add(e);
      }
      first = new int[states + 1];
      long[] k = new long[2 * entries.size()];
      int[] n = new int[2 * entries.size()];
      int size = 0;
      for (int s = 0; s < states; s++) {
        first[s] = size;
        List<FieldEntry> l = byState.get(s);
        if (l == null) {
          continue;
        }
        l.sort((a, b) -> Long.compareUnsigned(lo(a.match()), lo(b.match())));
        for (int i = 0; i < l.size(); i++) {
          long hi = hi(l.get(i).match());
          k[size] = lo(l.get(i).match()) ^ Long.MIN_VALUE;
          n[size++] = l.get(i).next();
          boolean adjacent = i + 1 < l.size() && lo(l.get(i + 1).match()) == hi + 1;
          if (hi != -1L && !adjacent) {
            k[size] = (hi + 1) ^ Long.MIN_VALUE;
            n[size++] = -1;
          }
        }
      }
      first[states] = size;
      keys = Arrays.copyOf(k, size);
      nexts = Arrays.copyOf(n, size);
    }

    @Override
    int next(int state, long value) {
      if (state >= first.length - 1) {
        return state;
      }
      int base = first[state];
      int n = first[state + 1] - base;
      long x = value ^ Long.MIN_VALUE;
      long[] k = keys;
      if (n == 0 || x < k[base]) {
        return state;
      }
      while (n > 1) { // the last key at or below x, without a data-dependent branch
        int half = n >>> 1;
        base = k[base + half] <= x ? base + half : base;
        n -= half;
      }
      int next = nexts[base];
      return next < 0 ? state : next;
    }

    private static long lo(Match m) {
      return switch (m) {
        case Match.Value v -> v.value();
        case Match.Range r -> r.lo();
        case Match.Any a -> throw new AssertionError("a default in a range table");
      };
    }

    private static long hi(Match m) {
      return m instanceof Match.Range r ? r.hi() : lo(m);
    }
  }
}
