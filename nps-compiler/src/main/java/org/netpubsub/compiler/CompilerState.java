package org.netpubsub.compiler;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.compiler.bdd.Bdd;
import org.netpubsub.compiler.bdd.ConjunctionBdd;
import org.netpubsub.compiler.bdd.Leaf;
import org.netpubsub.compiler.bdd.UnionTree;
import org.netpubsub.compiler.domain.ConstraintDomains;
import org.netpubsub.compiler.domain.Discretizer;
import org.netpubsub.compiler.domain.FieldConstraints;
import org.netpubsub.compiler.pipeline.PipelineDiff;
import org.netpubsub.compiler.pipeline.Slicer;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.compiler.spec.MatchKind;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.filter.Conjunction;

/**
 * What a compilation keeps to be continued: the BDD store, every rule's BDD, the union trees that
 * combine them, and the slicer holding the tables. Rules are grouped in buckets by their lowest
 * port; a bucket's union tree has one slot per rule, and a top tree one slot per bucket, so adding
 * or withdrawing a rule redoes about 2·log₂ n unions. Mutable; owned by the latest compilation.
 */
final class CompilerState {
  /** A compiled rule, where its BDD sits, and whether the tables match it exactly. */
  record Placed(Rule rule, int node, boolean exact, int bucket, int slot) {}

  /** Compact the store once it holds this many nodes and twice what the last compaction kept. */
  private static final int COMPACT_AT = 1 << 20;

  final MessageSpec spec;
  final CompileOptions options;
  final Bdd bdd;
  final Slicer slicer;
  final ConditionalActionTable conditional = new ConditionalActionTable();
  final Map<String, Placed> rules = new LinkedHashMap<>();
  private final Map<Integer, UnionTree> buckets = new HashMap<>();
  private final Map<Integer, Integer> topSlot = new HashMap<>();
  private final java.util.Set<Integer> changedBuckets = new java.util.HashSet<>();
  private final UnionTree top;
  private final Discretizer discretizer;
  private final long[] max;
  private int root = Bdd.EMPTY;
  private int keptAtCompaction;

  CompilerState(MessageSpec spec, CompileOptions options) {
    this.spec = spec;
    this.options = options;
    boolean[] eq = new boolean[spec.fields().size()];
    for (int f = 0; f < eq.length; f++) {
      eq[f] = spec.field(f).match() == MatchKind.EXACT;
    }
    this.bdd = new Bdd(eq);
    this.slicer = new Slicer(bdd, spec, options.contentIds());
    this.top = new UnionTree(bdd);
    this.discretizer = new Discretizer(options.alpha());
    this.max = spec.fields().stream().mapToLong(q -> q.max()).toArray();
  }

  int root() {
    return root;
  }

  /**
   * Adds a rule's BDD. A conjunction with aggregates leads to conditional actions instead of the
   * ports (Camus §2): the tables select it, and a stateful target decides on its aggregates.
   */
  void add(Rule r) {
    ConditionalActionTable.check(r);
    List<FieldConstraints> conjunctions = new ArrayList<>();
    for (Conjunction c : r.dnf().conjunctions()) {
      try {
        conjunctions.add(discretizer.apply(spec, ConstraintDomains.of(spec, c)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(r.id() + " (" + r.filter() + "): " + e.getMessage(), e);
      }
    }
    int plain = bdd.leaf(Leaf.of(r.ports()));
    int node = Bdd.EMPTY;
    boolean exact = true;
    int i = 0;
    for (Conjunction c : r.dnf().conjunctions()) {
      FieldConstraints widened = conjunctions.get(i++);
      exact &= widened.exact() && c.aggregates().isEmpty();
      int leaf = c.aggregates().isEmpty() ? plain : bdd.leaf(Leaf.of(conditional.actions(r, c)));
      node = bdd.union(node, ConjunctionBdd.build(bdd, widened, max, leaf));
    }
    int bucket = r.ports()[0];
    UnionTree tree =
        buckets.computeIfAbsent(
            bucket,
            b -> {
              topSlot.put(b, top.add(Bdd.EMPTY));
              return new UnionTree(bdd);
            });
    rules.put(r.id(), new Placed(r, node, exact, bucket, tree.add(node)));
    changedBuckets.add(bucket);
  }

  void remove(String id) {
    Placed p = rules.remove(id);
    conditional.release(id);
    UnionTree tree = buckets.get(p.bucket());
    tree.remove(p.slot());
    if (tree.isEmpty()) {
      buckets.remove(p.bucket());
      top.remove(topSlot.remove(p.bucket()));
      changedBuckets.remove(p.bucket());
    } else {
      changedBuckets.add(p.bucket());
    }
  }

  /** Brings the root and the tables up to date with the rules; returns the table diff. */
  PipelineDiff commit() {
    for (int b : changedBuckets) {
      top.set(topSlot.get(b), buckets.get(b).root());
    }
    changedBuckets.clear();
    root = top.root();
    PipelineDiff diff = slicer.update(root);
    conditional.endUpdate();
    maybeCompact();
    return diff;
  }

  /** The BDD a full compilation of the same rules gives, built in this store (for tests). */
  int rebuiltRoot() {
    List<Integer> nodes = new ArrayList<>();
    for (Placed p : rules.values()) {
      nodes.add(p.node());
    }
    while (nodes.size() > 1) {
      List<Integer> next = new ArrayList<>();
      for (int i = 0; i < nodes.size(); i += 2) {
        next.add(i + 1 < nodes.size() ? bdd.union(nodes.get(i), nodes.get(i + 1)) : nodes.get(i));
      }
      nodes = next;
    }
    return nodes.isEmpty() ? Bdd.EMPTY : nodes.get(0);
  }

  private void maybeCompact() {
    if (bdd.size() >= COMPACT_AT && bdd.size() >= 2 * keptAtCompaction) {
      compact();
    }
  }

  /** Frees the nodes nothing holds any more, renaming every held one. */
  void compact() {
    List<Integer> roots = new ArrayList<>();
    roots.add(root);
    for (Placed p : rules.values()) {
      roots.add(p.node());
    }
    for (UnionTree t : buckets.values()) {
      for (int n : t.nodes()) {
        roots.add(n);
      }
    }
    for (int n : top.nodes()) {
      roots.add(n);
    }
    for (int n : slicer.nodes()) {
      roots.add(n);
    }
    int[] remap = bdd.compact(roots.stream().mapToInt(Integer::intValue).toArray());
    keptAtCompaction = bdd.size();
    root = remap[root];
    rules.replaceAll(
        (id, p) -> new Placed(p.rule(), remap[p.node()], p.exact(), p.bucket(), p.slot()));
    buckets.values().forEach(t -> t.rename(remap));
    top.rename(remap);
    slicer.rename(remap);
  }
}
