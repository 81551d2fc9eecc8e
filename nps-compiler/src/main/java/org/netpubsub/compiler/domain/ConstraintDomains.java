package org.netpubsub.compiler.domain;

import org.netpubsub.compiler.spec.FieldKind;
import org.netpubsub.compiler.spec.MatchKind;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.spec.QueryField;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.IntConstraint;
import org.netpubsub.content.filter.StringConstraint;

/**
 * Turns a conjunction of the normal form into value sets per query field. Never a false negative:
 * what a field cannot express exactly is widened, and the result says so.
 *
 * <ul>
 *   <li>Int: [low − min, high − min] without the excluded points: exact.
 *   <li>String {@code ==}: the padded value; {@code prefix}: the range of values starting with its
 *       bytes. Exact up to trailing pad bytes, when the string fits the field.
 *   <li>String {@code !=}, {@code not prefix}, suffixes, substrings: widened to any value (a
 *       negation cannot be decided on padded or truncated bytes without risking a miss).
 *   <li>Attributes that are no query field: widened.
 * </ul>
 *
 * An exact-match field accepts only sets of single values or all but such a set (at most {@link
 * #MAX_EXACT_VALUES} of them); anything else is an IllegalArgumentException that names the field.
 */
public final class ConstraintDomains {
  private ConstraintDomains() {}

  public static FieldConstraints of(MessageSpec spec, Conjunction conjunction) {
    IntervalSet[] fields = new IntervalSet[spec.fields().size()];
    boolean exact = true;
    for (AttributeConstraint c : conjunction.constraints()) {
      var f = spec.fieldOf(c.attribute().position());
      if (f.isEmpty()) {
        exact = false;
        continue;
      }
      QueryField q = spec.field(f.get());
      Domain d =
          switch (c) {
            case IntConstraint i -> ints(q, i);
            case StringConstraint s -> strings(q, s);
          };
      exact &= d.exact();
      if (d.values() != null) {
        checkMatchKind(q, d.values());
        fields[f.get()] = d.values();
      }
    }
    return new FieldConstraints(fields, exact);
  }

  private record Domain(IntervalSet values, boolean exact) {}

  private static Domain ints(QueryField q, IntConstraint c) {
    IntervalSet s = IntervalSet.range(q.encode(c.low()), q.encode(c.high()));
    for (long x : c.excluded()) {
      s = s.minus(IntervalSet.point(q.encode(x)));
    }
    return new Domain(s, true);
  }

  private static Domain strings(QueryField q, StringConstraint c) {
    boolean exact = c.attribute().maxLength() <= q.bytes();
    if (c.equalTo() != null) {
      return new Domain(prefixOrValue(q, c.equalTo(), true), exact && q.fits(c.equalTo()));
    }
    IntervalSet s = IntervalSet.all(q.max());
    for (String p : c.prefixes()) {
      s = s.intersect(prefixOrValue(q, p, false));
      exact &= q.fits(p);
    }
    exact &=
        c.notEqualTo().isEmpty()
            && c.notPrefixes().isEmpty()
            && c.suffixes().isEmpty()
            && c.contains().isEmpty()
            && c.notSuffixes().isEmpty()
            && c.notContains().isEmpty()
            && c.patterns().isEmpty()
            && c.notPatterns().isEmpty();
    return new Domain(s.isAll(q.max()) ? null : s, exact);
  }

  /**
   * The values of strings equal to {@code v} (a point) or starting with it (a range); a string
   * longer than the field becomes the range of its first bytes.
   */
  private static IntervalSet prefixOrValue(QueryField q, String v, boolean equality) {
    byte[] b = v.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    if (equality && b.length <= q.bytes()) {
      return IntervalSet.point(q.encode(b, q.pad()));
    }
    return IntervalSet.range(q.encode(b, (byte) 0), q.encode(b, (byte) 0xff));
  }

  /**
   * The most values an exact field's chain enumerates (the accepted ones, or the excluded ones):
   * {@code c != 0 && c != 1} leaves [2, max], whose complement [0, 1] is two values, not a range.
   */
  public static final long MAX_EXACT_VALUES = 1024;

  private static void checkMatchKind(QueryField q, IntervalSet s) {
    if (q.match() != MatchKind.EXACT) {
      return;
    }
    if (Math.min(s.size(), s.complement(q.max()).size()) > MAX_EXACT_VALUES) {
      throw new IllegalArgumentException(
          q.name()
              + " is matched exactly (match: exact): only == and != apply, not a range"
              + (q.kind() == FieldKind.STRING ? " or prefix" : ""));
    }
  }
}
