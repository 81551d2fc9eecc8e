package org.netpubsub.compiler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.netpubsub.compiler.bdd.Bdd;
import org.netpubsub.compiler.pipeline.FieldEntry;
import org.netpubsub.compiler.pipeline.Match;
import org.netpubsub.compiler.pipeline.Pipeline;
import org.netpubsub.compiler.pipeline.Tcam;
import org.netpubsub.compiler.spec.QueryField;

/**
 * What a compiled pipeline costs a switch (Camus Table 1, Figure 12): entries per table, how many
 * are exact (SRAM) and how many ternary once ranges are expanded to prefixes (TCAM), what mapping a
 * range field onto a lower-resolution domain would save, multicast groups, BDD states — and the
 * one-big-table baseline, one entry per BDD path to a non-empty leaf over all fields at once.
 */
public record PipelineStats(
    int rules,
    int widenedRules,
    int bddNodes,
    List<TableStats> tables,
    int leafEntries,
    int groups,
    int states,
    int stateBits,
    double bigTableEntries,
    int bigTableWidth) {

  /**
   * One field's table. {@code ternary}: TCAM entries after prefix expansion (defaults count one,
   * values none). {@code breakpoints}: distinct range bounds; mapping the field to {@code
   * mappedWidth}-bit codes of its intervals costs {@code mappedTernary} entries here plus {@code
   * mappingTernary} in the mapping table.
   */
  public record TableStats(
      String field,
      String match,
      int width,
      int entries,
      int values,
      int ranges,
      int defaults,
      int ternary,
      int breakpoints,
      int mappedWidth,
      int mappedTernary,
      int mappingTernary) {}

  public static PipelineStats of(Compilation c) {
    Pipeline p = c.pipeline();
    List<TableStats> tables = new ArrayList<>();
    for (int f = 0; f < p.spec().fields().size(); f++) {
      tables.add(table(p.spec().field(f), List.copyOf(p.table(f))));
    }
    Bdd bdd = c.bdd();
    int width = p.spec().fields().stream().mapToInt(QueryField::width).sum();
    return new PipelineStats(
        c.ruleCount(),
        c.widenedRules(),
        reachable(bdd, c.root()),
        tables,
        p.leafTable().size(),
        p.groups().size(),
        p.stateBound(),
        p.stateBits(),
        paths(bdd, c.root()),
        width);
  }

  /** Entries of every table, the leaf table included. */
  public int entries() {
    return leafEntries + tables.stream().mapToInt(TableStats::entries).sum();
  }

  /** TCAM entries of every table (ranges expanded, no mapping). */
  public int ternary() {
    return tables.stream().mapToInt(TableStats::ternary).sum();
  }

  /** Bits of table memory: per entry its state and field (the leaf table: state and group). */
  public long tableBits() {
    long bits = (long) leafEntries * (stateBits + bitsFor(groups));
    for (TableStats t : tables) {
      bits += (long) t.entries() * (stateBits + t.width() + stateBits);
    }
    return bits;
  }

  /** The one-big-table baseline's bits: every path's match over all fields, and its group. */
  public double bigTableBits() {
    return bigTableEntries * (bigTableWidth + bitsFor(groups));
  }

  private static TableStats table(QueryField q, List<FieldEntry> entries) {
    int values = 0;
    int ranges = 0;
    int defaults = 0;
    int ternary = 0;
    TreeSet<Long> bounds = new TreeSet<>(Long::compareUnsigned);
    for (FieldEntry e : entries) {
      switch (e.match()) {
        case Match.Value v -> {
          values++;
          bounds.add(v.value());
          if (v.value() != q.max()) {
            bounds.add(v.value() + 1);
          }
        }
        case Match.Range r -> {
          ranges++;
          ternary += Tcam.prefixes(r.lo(), r.hi(), q.width());
          bounds.add(r.lo());
          if (r.hi() != q.max()) {
            bounds.add(r.hi() + 1);
          }
        }
        case Match.Any a -> {
          defaults++;
          ternary++;
        }
      }
    }
    bounds.remove(0L);
    if (q.match() == org.netpubsub.compiler.spec.MatchKind.EXACT) {
      // an exact table matches values in SRAM: nothing to map
      return new TableStats(
          q.name(),
          q.match().label(),
          q.width(),
          entries.size(),
          values,
          ranges,
          defaults,
          ternary,
          0,
          q.width(),
          ternary,
          0);
    }
    // Mapped: value v becomes the number of bounds ≤ v, so each entry is a range of codes.
    int k = bounds.size();
    int mappedWidth = Math.max(1, 32 - Integer.numberOfLeadingZeros(k));
    Map<Long, Integer> code = new HashMap<>();
    int i = 1;
    for (long b : bounds) {
      code.put(b, i++);
    }
    int mapped = 0;
    for (FieldEntry e : entries) {
      if (e.match() instanceof Match.Range r) {
        long lo = code.getOrDefault(r.lo(), 0);
        long hi = r.hi() == q.max() ? k : code.get(r.hi() + 1) - 1;
        mapped += Tcam.prefixes(lo, hi, mappedWidth);
      } else if (e.match() instanceof Match.Any) {
        mapped++;
      }
    }
    int mapping = 0;
    long lo = 0;
    for (long b : bounds) {
      mapping += Tcam.prefixes(lo, b - 1, q.width());
      lo = b;
    }
    if (!entries.isEmpty()) {
      mapping += Tcam.prefixes(lo, q.max(), q.width());
    }
    return new TableStats(
        q.name(),
        q.match().label(),
        q.width(),
        entries.size(),
        values,
        ranges,
        defaults,
        ternary,
        k,
        mappedWidth,
        mapped,
        mapping);
  }

  private static int bitsFor(int n) {
    return Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(0, n)));
  }

  private static int reachable(Bdd bdd, int root) {
    return reachableNodes(bdd, root).size();
  }

  /** The nodes below the root (the root included), in no particular order. */
  private static List<Integer> reachableNodes(Bdd bdd, int root) {
    List<Integer> out = new ArrayList<>();
    java.util.BitSet seen = new java.util.BitSet();
    java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>();
    todo.push(root);
    seen.set(root);
    while (!todo.isEmpty()) {
      int n = todo.pop();
      out.add(n);
      if (bdd.isNode(n)) {
        for (int c : new int[] {bdd.whenTrue(n), bdd.whenFalse(n)}) {
          if (!seen.get(c)) {
            seen.set(c);
            todo.push(c);
          }
        }
      }
    }
    return out;
  }

  /** Paths from the root to non-empty leaves (as a double: they can be astronomically many). */
  private static double paths(Bdd bdd, int root) {
    Map<Integer, Double> memo = new HashMap<>();
    // children before parents: a child is always older (smaller id) than its parents
    List<Integer> order = reachableNodes(bdd, root);
    order.sort(null);
    for (int n : order) {
      double v =
          bdd.isLeaf(n)
              ? (bdd.leafOf(n).isEmpty() ? 0 : 1)
              : memo.get(bdd.whenTrue(n)) + memo.get(bdd.whenFalse(n));
      memo.put(n, v);
    }
    return memo.get(root);
  }
}
