package org.netpubsub.content.workload;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.content.schema.Schema;

/**
 * The PLEROMA synthetic event space (§V-A) shared by the uniform and Zipf models: {@code n} int
 * attributes {@code a0..a{n-1}} over the domain [0, D-1], and the shape of subscriptions: each
 * attribute is constrained with probability {@code constrainProb} (at least one always is) to a
 * range {@code aI in [lo, hi]} whose width is uniform in [1, max(1, floor(maxWidth * D))].
 */
public record IntSpace(int attributes, long domain, double maxWidth, double constrainProb) {
  public static final int DEFAULT_ATTRIBUTES = 2;

  /** PLEROMA evaluates up to 10 attributes. */
  public static final int MAX_ATTRIBUTES = 10;

  /** PLEROMA's domain [0, 1023]. */
  public static final long DEFAULT_DOMAIN = 1024;

  public static final double DEFAULT_MAX_WIDTH = 0.25;
  public static final double DEFAULT_CONSTRAIN_PROB = 1.0;

  public IntSpace {
    if (attributes < 1 || attributes > MAX_ATTRIBUTES) {
      throw new IllegalArgumentException(
          "attributes must be in [1, " + MAX_ATTRIBUTES + "], got " + attributes);
    }
    if (domain < 1 || domain > (1L << 62)) {
      throw new IllegalArgumentException("domain must be in [1, 2^62], got " + domain);
    }
    if (!(maxWidth > 0 && maxWidth <= 1)) {
      throw new IllegalArgumentException("max width must be in (0, 1], got " + maxWidth);
    }
    if (!(constrainProb > 0 && constrainProb <= 1)) {
      throw new IllegalArgumentException(
          "constrain probability must be in (0, 1], got " + constrainProb);
    }
  }

  public static IntSpace defaults() {
    return new IntSpace(
        DEFAULT_ATTRIBUTES, DEFAULT_DOMAIN, DEFAULT_MAX_WIDTH, DEFAULT_CONSTRAIN_PROB);
  }

  /** The attribute name at position {@code i}. */
  public static String name(int i) {
    return "a" + i;
  }

  Schema schema(String schemaName) {
    Schema.Builder b = Schema.builder(schemaName);
    for (int i = 0; i < attributes; i++) {
      b.intAttribute(name(i), 0, domain - 1);
    }
    return b.build();
  }

  /** The widest range a subscription may have: at least 1, at most D. */
  long maxRangeWidth() {
    return Math.max(1, (long) (maxWidth * domain));
  }

  /**
   * A range filter. With {@code centers == null} each range lies uniformly in the domain; otherwise
   * range i is centred on centers[i] as far as the domain allows (shifted inwards at the edges, so
   * that its width is kept).
   */
  String drawFilter(Rand rng, long[] centers) {
    boolean[] constrained = new boolean[attributes];
    boolean any = false;
    for (int i = 0; i < attributes; i++) {
      constrained[i] = rng.chance(constrainProb);
      any |= constrained[i];
    }
    if (!any) { // an empty conjunction would match everything: constrain one attribute instead
      constrained[rng.belowInt(attributes)] = true;
    }
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < attributes; i++) {
      if (!constrained[i]) {
        continue;
      }
      long width = rng.between(1, maxRangeWidth());
      long lo =
          centers == null
              ? rng.between(0, domain - width)
              : Math.clamp(centers[i] - width / 2, 0, domain - width);
      parts.add(FilterText.range(name(i), lo, lo + width - 1));
    }
    return FilterText.and(parts);
  }
}
