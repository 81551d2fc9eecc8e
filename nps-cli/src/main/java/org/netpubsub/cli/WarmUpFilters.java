package org.netpubsub.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/**
 * Synthetic filters over a schema for the controller's start-up warm-up ({@link ControllerWarmUp}):
 * ranges, equalities and conjunctions of them, with values drawn from the attributes' domains, so
 * that the filter parser, the normal form and the cell cover run the shapes real requests have.
 * Seeded, so a start-up warms the same way each time.
 */
final class WarmUpFilters {
  private final List<IntAttribute> ints = new ArrayList<>();
  private final List<StringAttribute> strings = new ArrayList<>();
  private final List<IntAttribute> dimensions = new ArrayList<>();
  private final SplittableRandom random;

  WarmUpFilters(Schema schema, long seed) {
    for (Attribute a : schema.attributes()) {
      if (a instanceof IntAttribute i) {
        ints.add(i);
      } else if (a instanceof StringAttribute s && !s.isTopic()) {
        strings.add(s);
      }
    }
    for (Attribute a : schema.indexDimensions()) {
      if (a instanceof IntAttribute i) {
        dimensions.add(i);
      }
    }
    random = new SplittableRandom(seed);
  }

  /**
   * Filter {@code i}: narrow ranges, equalities, or ranges and a constraint on another attribute,
   * in turn ("true" on no attributes). Each constrains every integer index dimension, as the
   * workloads' filters do: a bound on one dimension alone covers every value of the others, so many
   * cells, and the warm-up would spend its budget on flow changes a typical request does not make.
   */
  String next(int i) {
    if (dimensions.isEmpty()) {
      return ints.isEmpty() && strings.isEmpty() ? "true" : other();
    }
    return switch (i % 3) {
      case 0 -> each(this::range);
      case 1 -> each(a -> a.name() + " == " + value(a));
      default -> each(this::range) + " && " + other();
    };
  }

  private String each(java.util.function.Function<IntAttribute, String> constraint) {
    StringBuilder f = new StringBuilder();
    for (IntAttribute a : dimensions) {
      f.append(f.isEmpty() ? "" : " && ").append(constraint.apply(a));
    }
    return f.toString();
  }

  /** A constraint on an attribute that is not an index dimension, if there is one. */
  private String other() {
    List<IntAttribute> rest = ints.stream().filter(a -> !dimensions.contains(a)).toList();
    if (!strings.isEmpty() && (rest.isEmpty() || random.nextBoolean())) {
      return equality();
    }
    return range(rest.isEmpty() ? pick(ints) : pick(rest));
  }

  private String range(IntAttribute a) {
    long lo = value(a);
    long width = Math.max(1, span(a) / 50);
    long hi = lo + random.nextLong(width);
    if (hi > a.max() || hi < lo) {
      hi = a.max();
    }
    return a.name() + " >= " + lo + " && " + a.name() + " <= " + hi;
  }

  private String equality() {
    StringAttribute s = pick(strings);
    int length = Math.max(1, Math.min(s.maxLength(), 1 + random.nextInt(4)));
    StringBuilder v = new StringBuilder();
    for (int k = 0; k < length; k++) {
      v.append((char) ('A' + random.nextInt(26)));
    }
    return s.name() + " == \"" + v + "\"";
  }

  private long value(IntAttribute a) {
    long span = span(a);
    return span == Long.MAX_VALUE
        ? a.min() + (random.nextLong() & Long.MAX_VALUE)
        : a.min() + random.nextLong(span + 1);
  }

  /** max - min, or Long.MAX_VALUE when that overflows (a full 64-bit attribute). */
  private static long span(IntAttribute a) {
    long width = a.max() - a.min();
    return width < 0 ? Long.MAX_VALUE : width;
  }

  private <T> T pick(List<T> from) {
    return from.get(random.nextInt(from.size()));
  }
}
