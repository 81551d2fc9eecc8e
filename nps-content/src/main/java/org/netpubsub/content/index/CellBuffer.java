package org.netpubsub.content.index;

import java.util.Arrays;

/**
 * A growable structure-of-arrays of cells for {@link BoxDecomposer}: each cell's dz bits, its code
 * along every dimension, which dimensions it only partly overlaps, and how many. Reused level after
 * level, so refining allocates nothing per cell.
 */
final class CellBuffer {
  private final int dims;
  long[] hi;
  long[] lo;
  long[] codes;
  boolean[] partial;
  int[] partialCount;
  int size;

  CellBuffer(int dims, int capacity) {
    this.dims = dims;
    this.hi = new long[capacity];
    this.lo = new long[capacity];
    this.codes = new long[capacity * dims];
    this.partial = new boolean[capacity * dims];
    this.partialCount = new int[capacity];
  }

  /** Appends a copy of {@code parent} of {@code from} with new dz words; returns its index. */
  int addChild(CellBuffer from, int parent, long childHi, long childLo) {
    if (size == hi.length) {
      grow();
    }
    int c = size++;
    hi[c] = childHi;
    lo[c] = childLo;
    // A plain loop: rows are a handful of entries, too short for arraycopy's overhead.
    for (int i = 0, src = parent * dims, dst = c * dims; i < dims; i++) {
      codes[dst + i] = from.codes[src + i];
      partial[dst + i] = from.partial[src + i];
    }
    partialCount[c] = from.partialCount[parent];
    return c;
  }

  /** Appends the root cell ε with all codes 0. */
  void addRoot(boolean[] partialAlong) {
    size = 1;
    hi[0] = 0;
    lo[0] = 0;
    Arrays.fill(codes, 0, dims, 0);
    int n = 0;
    for (int d = 0; d < dims; d++) {
      partial[d] = partialAlong[d];
      n += partialAlong[d] ? 1 : 0;
    }
    partialCount[0] = n;
  }

  private void grow() {
    int cap = Math.max(4, hi.length * 2);
    hi = Arrays.copyOf(hi, cap);
    lo = Arrays.copyOf(lo, cap);
    codes = Arrays.copyOf(codes, cap * dims);
    partial = Arrays.copyOf(partial, cap * dims);
    partialCount = Arrays.copyOf(partialCount, cap);
  }
}
