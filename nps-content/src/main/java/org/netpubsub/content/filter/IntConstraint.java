package org.netpubsub.content.filter;

import java.util.Arrays;
import org.netpubsub.content.schema.IntAttribute;

/**
 * What a conjunction demands of an int attribute: a value in [low, high] other than the {@code
 * excluded} points. Canonical: low ≤ high, the excluded points are sorted, distinct and strictly
 * inside (low, high), so equal constraints are equal records (compare {@code excluded} with {@link
 * java.util.Arrays#equals}).
 */
public record IntConstraint(IntAttribute attribute, long low, long high, long[] excluded)
    implements AttributeConstraint {

  /** Whether {@code value} satisfies this constraint. */
  public boolean accepts(long value) {
    return value >= low && value <= high && Arrays.binarySearch(excluded, value) < 0;
  }
}
