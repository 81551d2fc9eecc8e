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
 * a pipeline; lookups use primitive arrays only — a hash per exact table, a binary search per range
 * table. Immutable and thread-safe once built.
 */
public final class SoftwarePipeline {
  private final FieldLookup[] tables;
  private final int[] groupOfState;
  private final int[][] actionsOfGroup;

  private SoftwarePipeline(FieldLookup[] tables, int[] groupOfState, int[][] actionsOfGroup) {
    this.tables = tables;
    this.groupOfState = groupOfState;
    this.actionsOfGroup = actionsOfGroup;
  }

  public static SoftwarePipeline of(Pipeline p) {
    int states = p.stateBound();
    FieldLookup[] tables = new FieldLookup[p.spec().fields().size()];
    for (int f = 0; f < tables.length; f++) {
      tables[f] = FieldLookup.of(p.table(f), states);
    }
    int[] groupOfState = new int[states];
    Arrays.fill(groupOfState, -1);
    for (LeafEntry e : p.leafTable()) {
      groupOfState[e.state()] = e.group();
    }
    int maxGroup = p.groups().stream().mapToInt(Group::id).max().orElse(0);
    int[][] actions = new int[maxGroup + 1][];
    for (Group g : p.groups()) {
      actions[g.id()] = g.actions();
    }
    return new SoftwarePipeline(tables, groupOfState, actions);
  }

  /** The group a message with these field values reaches, or −1 (dropped). */
  public int group(long[] values) {
    int state = 0;
    for (int f = 0; f < tables.length; f++) {
      state = tables[f].next(state, values[f]);
    }
    return state < groupOfState.length ? groupOfState[state] : -1;
  }

  /** The actions (ports) for a message, sorted; empty when dropped. */
  public int[] actions(long[] values) {
    int g = group(values);
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

  private static final class Ranges extends FieldLookup {
    private final long[][] los;
    private final long[][] his;
    private final int[][] nexts;

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
      los = new long[states][];
      his = new long[states][];
      nexts = new int[states][];
      for (int s = 0; s < states; s++) {
        List<FieldEntry> l = byState.get(s);
        if (l == null) {
          continue;
        }
        l.sort((a, b) -> Long.compareUnsigned(lo(a.match()), lo(b.match())));
        los[s] = l.stream().mapToLong(e -> lo(e.match())).toArray();
        his[s] = l.stream().mapToLong(e -> hi(e.match())).toArray();
        nexts[s] = l.stream().mapToInt(FieldEntry::next).toArray();
      }
    }

    @Override
    int next(int state, long value) {
      if (state >= los.length || los[state] == null) {
        return state;
      }
      long[] lo = los[state];
      int a = 0;
      int b = lo.length - 1;
      while (a <= b) { // the last range starting at or below value
        int mid = (a + b) >>> 1;
        if (Long.compareUnsigned(lo[mid], value) <= 0) {
          a = mid + 1;
        } else {
          b = mid - 1;
        }
      }
      if (b >= 0 && Long.compareUnsigned(value, his[state][b]) <= 0) {
        return nexts[state][b];
      }
      return state;
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
