package org.netpubsub.compiler.pipeline;

import java.util.Collection;
import java.util.List;
import org.netpubsub.compiler.spec.MessageSpec;

/**
 * The compiled tables (Camus Figure 6): one table per query field in variable order, matching the
 * BDD state (metadata, 0 at the start) and the field, then a leaf table from the final state to a
 * multicast group. A message whose state no table entry matches keeps its state; one that reaches
 * no leaf entry is dropped. A read-only view of the compilation it came from.
 */
public interface Pipeline {
  MessageSpec spec();

  /** The entries of field {@code f}'s table. */
  Collection<FieldEntry> table(int f);

  Collection<LeafEntry> leafTable();

  Collection<Group> groups();

  /** One more than the largest state id in use: the states fit in {@link #stateBits} bits. */
  int stateBound();

  /** Metadata bits that hold every state, at least 1. */
  default int stateBits() {
    return Math.max(1, 32 - Integer.numberOfLeadingZeros(Math.max(0, stateBound() - 1)));
  }

  /** Entries of all tables, the leaf table included. */
  default int entries() {
    int n = leafTable().size();
    for (int f = 0; f < spec().fields().size(); f++) {
      n += table(f).size();
    }
    return n;
  }

  /** The tables in order, for printing. */
  default List<Collection<FieldEntry>> tables() {
    return java.util.stream.IntStream.range(0, spec().fields().size())
        .mapToObj(this::table)
        .toList();
  }
}
