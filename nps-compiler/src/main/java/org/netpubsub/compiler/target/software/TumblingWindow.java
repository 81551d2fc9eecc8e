package org.netpubsub.compiler.target.software;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.netpubsub.content.filter.Filter;

/**
 * One slot's state: the count and sum of the messages that updated it in the current tumbling
 * window. Windows are aligned on multiples of their length ([k·w, (k+1)·w) in the caller's clock),
 * as a periodic reset of the registers would make them; the first update in a later window starts
 * it afresh. Sums are exact (a long, then a BigInteger past 2^63). Mutable.
 */
final class TumblingWindow {
  private final long length;
  private long index = Long.MIN_VALUE;
  private long count;
  private long sum;
  private BigInteger bigSum; // non-null once sum overflowed

  TumblingWindow(long lengthNanos) {
    if (lengthNanos <= 0) {
      throw new IllegalArgumentException("a window must be positive, got " + lengthNanos + " ns");
    }
    this.length = lengthNanos;
  }

  /** Counts a message with argument {@code value} (ignored by count()) at {@code nowNanos}. */
  void add(long nowNanos, long value) {
    long k = Math.floorDiv(nowNanos, length);
    if (k != index) {
      index = k;
      count = 0;
      sum = 0;
      bigSum = null;
    }
    count++;
    if (bigSum == null) {
      long s = sum + value;
      if (((sum ^ s) & (value ^ s)) < 0) { // overflow
        bigSum = BigInteger.valueOf(sum).add(BigInteger.valueOf(value));
      } else {
        sum = s;
      }
    } else {
      bigSum = bigSum.add(BigInteger.valueOf(value));
    }
  }

  long count() {
    return count;
  }

  BigInteger sum() {
    return bigSum != null ? bigSum : BigInteger.valueOf(sum);
  }

  /**
   * Whether the atom's comparison holds on this window. avg is exact: sum / count is compared as
   * the rational it is (sum against threshold × count), never rounded. With no message in the
   * window (count 0), avg is undefined and no comparison holds.
   */
  boolean holds(Filter.Aggregate atom) {
    if (atom.function() == Filter.AggregateFunction.AVG && count == 0) {
      return false;
    }
    BigDecimal n = BigDecimal.valueOf(count);
    int cmp =
        switch (atom.function()) {
          case COUNT -> n.compareTo(atom.threshold());
          case SUM -> new BigDecimal(sum()).compareTo(atom.threshold());
          case AVG -> new BigDecimal(sum()).compareTo(atom.threshold().multiply(n));
        };
    return switch (atom.op()) {
      case LT -> cmp < 0;
      case LE -> cmp <= 0;
      case GT -> cmp > 0;
      case GE -> cmp >= 0;
      case EQ -> cmp == 0;
      case NE -> cmp != 0;
    };
  }
}
