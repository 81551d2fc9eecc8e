package org.netpubsub.compiler.itch;

/**
 * 64 × 64 bit-matrix transposition, the step that turns "ports of each message" into "messages of
 * each port" for 64 messages and 64 ports at once (Camus's port mask, computed for a whole packet).
 * Row {@code i} is {@code rows[i]}, column {@code j} its bit {@code 1L << j}.
 */
final class BitMatrix {
  private BitMatrix() {}

  /**
   * Transposes in place: afterwards bit {@code i} of {@code rows[j]} is what bit {@code j} of
   * {@code rows[i]} was. Recursive block swaps (Hacker's Delight §7-3): 6 rounds of 32 masked
   * swaps, a few hundred instructions for 4096 bits.
   */
  static void transpose(long[] rows) {
    // The swap network works on rows numbered from the top and bits from the left; reversing the
    // row order before and after makes it the plain transpose for bits numbered from the right.
    reverse(rows);
    long m = 0x0000_0000_FFFF_FFFFL;
    for (int j = 32; j != 0; j >>= 1, m ^= m << j) {
      for (int k = 0; k < 64; k = (k + j + 1) & ~j) {
        long t = (rows[k] ^ (rows[k + j] >>> j)) & m;
        rows[k] ^= t;
        rows[k + j] ^= t << j;
      }
    }
    reverse(rows);
  }

  private static void reverse(long[] rows) {
    for (int i = 0, j = 63; i < j; i++, j--) {
      long t = rows[i];
      rows[i] = rows[j];
      rows[j] = t;
    }
  }
}
