package org.netpubsub.content.index;

import java.util.List;

/**
 * Decomposes one conjunction's box (a product of {@link AcceptedRanges}) into dz cells,
 * breadth-first over the interleaved bits: a cell inside the box is emitted, a disjoint cell is
 * dropped, a partial cell is split by the next bit, until length L (where partial cells are emitted
 * as they are). A cell whose split would exceed the cell budget is emitted unsplit: a shorter dz is
 * a superset, so no matching event is ever lost.
 */
final class BoxDecomposer {
  private final IndexDimension[] dims;
  private final int[] dimAt;
  private final AcceptedRanges[] ranges;

  // Code intervals of the dimension being split, at its new level (see prepare).
  private long[] overlapLo = new long[1];
  private long[] overlapHi = new long[1];
  private long[] fullLo = new long[1];
  private long[] fullHi = new long[1];
  private boolean[] hasFull = new boolean[1];

  BoxDecomposer(IndexDimension[] dims, int[] dimAt, AcceptedRanges[] ranges) {
    this.dims = dims;
    this.dimAt = dimAt;
    this.ranges = ranges;
  }

  /** Adds the cells of the box to {@code out}: at most {@code budget} of them (budget ≥ 1). */
  void decompose(int budget, List<Dz> out) {
    int n = dims.length;
    boolean[] partialAlong = new boolean[n];
    for (int d : dimAt) {
      if (d >= 0) {
        partialAlong[d] = !ranges[d].isWhole(dims[d]); // a dimension without bits never narrows
      }
    }
    int capacity = Math.min(budget, 64) + 2;
    CellBuffer cur = new CellBuffer(n, capacity);
    CellBuffer next = new CellBuffer(n, capacity);
    cur.addRoot(partialAlong);
    if (cur.partialCount[0] == 0) {
      out.add(Dz.EMPTY);
      return;
    }
    int before = out.size();
    int[] bits = new int[n];
    int level = 0;
    for (; level < dimAt.length && cur.size > 0; level++) {
      int d = dimAt[level];
      if (d < 0) {
        break; // every dimension is resolved: no cell can still be partial
      }
      split(cur, next, level, d, ++bits[d], budget - (out.size() - before), out);
      CellBuffer t = cur;
      cur = next;
      next = t;
    }
    for (int c = 0; c < cur.size; c++) {
      out.add(Dz.of(cur.hi[c], cur.lo[c], level));
    }
  }

  /**
   * Splits the cells of {@code cur} by bit {@code level} (dimension d's k-th bit): children inside
   * the box go to {@code out}, partial ones to {@code next}, disjoint ones nowhere. A cell whose
   * split would take the count (cells emitted, cells in next, cells not yet split) past {@code
   * budget} goes to {@code out} unsplit. Usually a level fits and every cell is split; when it does
   * not, the cells are split in order while the budget allows, so the cover is never coarser than
   * stopping at the previous level.
   */
  private void split(
      CellBuffer cur, CellBuffer next, int level, int d, int k, int budget, List<Dz> out) {
    int n = dims.length;
    prepare(d, k);
    next.size = 0;
    int emitted = 0;
    long bitHi = level < 64 ? 1L << (63 - level) : 0;
    long bitLo = level < 64 ? 0 : 1L << (127 - level);
    int[] status = new int[2];
    for (int c = 0; c < cur.size; c++) {
      int at = c * n + d;
      boolean parentPartial = cur.partial[at];
      int children = 0;
      for (int bit = 0; bit < 2; bit++) {
        status[bit] = parentPartial ? classify(d, cur.codes[at] << 1 | bit) : FULL;
        children += status[bit] == DISJOINT ? 0 : 1;
      }
      int unsplit = cur.size - c - 1;
      if (emitted + next.size + children + unsplit > budget) {
        out.add(Dz.of(cur.hi[c], cur.lo[c], level));
        emitted++;
        continue;
      }
      for (int bit = 0; bit < 2; bit++) {
        if (status[bit] == DISJOINT) {
          continue;
        }
        boolean childPartial = status[bit] == PARTIAL;
        long h = bit == 0 ? cur.hi[c] : cur.hi[c] | bitHi;
        long l = bit == 0 ? cur.lo[c] : cur.lo[c] | bitLo;
        int pc = cur.partialCount[c] - (parentPartial ? 1 : 0) + (childPartial ? 1 : 0);
        if (pc == 0) {
          out.add(Dz.of(h, l, level + 1));
          emitted++;
        } else {
          int child = next.addChild(cur, c, h, l);
          next.codes[child * n + d] = cur.codes[at] << 1 | bit;
          next.partial[child * n + d] = childPartial;
          next.partialCount[child] = pc;
        }
      }
    }
  }

  private static final int FULL = 0;
  private static final int PARTIAL = 1;
  private static final int DISJOINT = 2;

  /** Whether cell {@code code} of dimension {@code d} (at the prepared level) is in the box. */
  private int classify(int d, long code) {
    int count = ranges[d].count;
    for (int j = 0; j < count; j++) {
      if (hasFull[j]
          && Long.compareUnsigned(fullLo[j], code) <= 0
          && Long.compareUnsigned(code, fullHi[j]) <= 0) {
        return FULL;
      }
    }
    for (int j = 0; j < count; j++) {
      if (Long.compareUnsigned(overlapLo[j], code) <= 0
          && Long.compareUnsigned(code, overlapHi[j]) <= 0) {
        return PARTIAL;
      }
    }
    return DISJOINT;
  }

  /**
   * For each accepted interval [a, b] of dimension d: the k-bit cells that overlap it are codes
   * code(a)..code(b); the cells inside it are those strictly after the cell of a−1 and strictly
   * before the cell of b+1 (codes are monotone in the value).
   */
  private void prepare(int d, int k) {
    AcceptedRanges r = ranges[d];
    if (overlapLo.length < r.count) {
      overlapLo = new long[r.count];
      overlapHi = new long[r.count];
      fullLo = new long[r.count];
      fullHi = new long[r.count];
      hasFull = new boolean[r.count];
    }
    long m = dims[d].sizeMinus1();
    long maxCode = k == 64 ? -1L : (1L << k) - 1;
    for (int j = 0; j < r.count; j++) {
      long a = r.low[j];
      long b = r.high[j];
      overlapLo[j] = Codes.code(a, m, k);
      overlapHi[j] = Codes.code(b, m, k);
      boolean any = true;
      long fl = 0;
      if (a != 0) {
        long before = Codes.code(a - 1, m, k);
        any = before != maxCode;
        fl = before + 1;
      }
      long fh = maxCode;
      if (b != m) {
        long after = Codes.code(b + 1, m, k);
        any &= after != 0;
        fh = after - 1;
      }
      fullLo[j] = fl;
      fullHi[j] = fh;
      hasFull[j] = any && Long.compareUnsigned(fl, fh) <= 0;
    }
  }
}
