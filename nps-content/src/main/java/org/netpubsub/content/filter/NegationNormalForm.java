package org.netpubsub.content.filter;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.content.filter.Filter.Comparison;
import org.netpubsub.content.filter.Filter.StringOp;

/**
 * Pushes negations down to the atoms (negation normal form). Afterwards a {@link Filter.Not} only
 * sits directly above a {@code prefix}, {@code suffix} or {@code contains} comparison, which have
 * no positive counterpart; every other negation is folded into its atom.
 */
final class NegationNormalForm {
  private NegationNormalForm() {}

  static Filter of(Filter f) {
    return push(f, false);
  }

  private static Filter push(Filter f, boolean negated) {
    return switch (f) {
      case Filter.Not n -> push(n.operand(), !negated);
      case Filter.And a ->
          negated
              ? new Filter.Or(all(a.operands(), true))
              : new Filter.And(all(a.operands(), false));
      case Filter.Or o ->
          negated
              ? new Filter.And(all(o.operands(), true))
              : new Filter.Or(all(o.operands(), false));
      case Filter.Constant c -> new Filter.Constant(c.value() != negated);
      case Filter.IntComparison c ->
          negated ? new Filter.IntComparison(c.attribute(), c.op().negate(), c.value()) : c;
      case Filter.IntRange r ->
          negated
              ? new Filter.Or(
                  List.of(
                      new Filter.IntComparison(r.attribute(), Comparison.LT, r.low()),
                      new Filter.IntComparison(r.attribute(), Comparison.GT, r.high())))
              : r;
      case Filter.StringComparison s -> negated ? negate(s) : s;
      case Filter.Aggregate a ->
          negated
              ? new Filter.Aggregate(
                  a.function(), a.argument(), a.op().negate(), a.threshold(), a.window())
              : a;
    };
  }

  private static Filter negate(Filter.StringComparison s) {
    return switch (s.op()) {
      case EQ -> new Filter.StringComparison(s.attribute(), StringOp.NE, s.value());
      case NE -> new Filter.StringComparison(s.attribute(), StringOp.EQ, s.value());
      case PREFIX, SUFFIX, CONTAINS, MATCHES -> new Filter.Not(s);
    };
  }

  private static List<Filter> all(List<Filter> operands, boolean negated) {
    List<Filter> out = new ArrayList<>(operands.size());
    for (Filter op : operands) {
      out.add(push(op, negated));
    }
    return out;
  }
}
