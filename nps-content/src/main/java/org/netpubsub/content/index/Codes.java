package org.netpubsub.content.index;

/**
 * The k-bit cell code of an offset in a dimension of {@code size} values: {@code floor(v · 2^k /
 * size)}, i.e. each bit halves the current interval and is 1 iff the value lies at or above the
 * real-valued midpoint (PLEROMA Fig. 2). Offsets and sizes are unsigned: {@code sizeMinus1 = -1}
 * means 2^64 values.
 */
final class Codes {
  private Codes() {}

  /** The number of bits after which every cell holds at most one value: ceil(log2(size)). */
  static int resolution(long sizeMinus1) {
    return 64 - Long.numberOfLeadingZeros(sizeMinus1);
  }

  /**
   * {@code floor(v · 2^k / size)} for an unsigned offset {@code v < size} and {@code 0 ≤ k ≤ 64}.
   */
  static long code(long v, long sizeMinus1, int k) {
    if (k == 0) {
      return 0;
    }
    if ((sizeMinus1 & (sizeMinus1 + 1)) == 0) {
      // size = 2^s: the code is the top k of the s bits (or v scaled up past the resolution).
      int s = resolution(sizeMinus1);
      return k <= s ? v >>> (s - k) : v << (k - s);
    }
    if (k <= 62 && sizeMinus1 >= 0 && v >= 0 && v >>> (63 - k) == 0) {
      return (v << k) / (sizeMinus1 + 1); // v · 2^k < 2^63: exact in a long
    }
    return longDivision(v, sizeMinus1 + 1, k);
  }

  /**
   * The first k binary digits of the fraction v / size (unsigned, v < size < 2^64), by schoolbook
   * long division: exact, no allocation.
   */
  static long longDivision(long v, long size, int k) {
    long q = 0;
    long r = v;
    for (int i = 0; i < k; i++) {
      boolean carry = r < 0; // 2r ≥ 2^64
      r <<= 1;
      q <<= 1;
      if (carry || Long.compareUnsigned(r, size) >= 0) {
        r -= size;
        q |= 1;
      }
    }
    return q;
  }
}
