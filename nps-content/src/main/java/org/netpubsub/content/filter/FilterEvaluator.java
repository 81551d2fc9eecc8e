package org.netpubsub.content.filter;

import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Topics;

/** Direct evaluation of a filter on an event: the oracle of every differential test. */
public final class FilterEvaluator {
  private static final String STATEFUL =
      "stateful aggregates are evaluated by the compiler targets";

  private FilterEvaluator() {}

  /**
   * Evaluates the filter's syntax tree, short-circuiting {@code &&} and {@code ||}.
   *
   * @throws IllegalArgumentException when the filter has stateful aggregates (even where
   *     short-circuiting would skip them, so that the answer does not depend on operand order)
   */
  public static boolean matches(Filter filter, Event event) {
    if (hasAggregates(filter)) {
      throw new IllegalArgumentException(STATEFUL);
    }
    return eval(filter, event);
  }

  /**
   * Evaluates a normal form: some conjunction whose every constraint accepts the event's value.
   *
   * @throws IllegalArgumentException when the filter has stateful aggregates
   */
  public static boolean matches(Dnf dnf, Event event) {
    for (Conjunction c : dnf.conjunctions()) {
      if (!c.aggregates().isEmpty()) {
        throw new IllegalArgumentException(STATEFUL);
      }
    }
    for (Conjunction c : dnf.conjunctions()) {
      if (matches(c, event)) {
        return true;
      }
    }
    return false;
  }

  private static boolean matches(Conjunction c, Event event) {
    for (AttributeConstraint constraint : c.constraints()) {
      boolean ok =
          switch (constraint) {
            case IntConstraint i -> i.accepts(event.intValue(i.attribute().position()));
            case StringConstraint s -> s.accepts(event.stringValue(s.attribute().position()));
          };
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  /** Whether the filter contains a stateful aggregate anywhere. */
  public static boolean hasAggregates(Filter filter) {
    return switch (filter) {
      case Filter.Aggregate a -> true;
      case Filter.And a -> a.operands().stream().anyMatch(FilterEvaluator::hasAggregates);
      case Filter.Or o -> o.operands().stream().anyMatch(FilterEvaluator::hasAggregates);
      case Filter.Not n -> hasAggregates(n.operand());
      default -> false;
    };
  }

  private static boolean eval(Filter f, Event e) {
    return switch (f) {
      case Filter.And a -> {
        for (Filter op : a.operands()) {
          if (!eval(op, e)) {
            yield false;
          }
        }
        yield true;
      }
      case Filter.Or o -> {
        for (Filter op : o.operands()) {
          if (eval(op, e)) {
            yield true;
          }
        }
        yield false;
      }
      case Filter.Not n -> !eval(n.operand(), e);
      case Filter.Constant c -> c.value();
      case Filter.IntComparison c -> compare(e.intValue(c.attribute().position()), c);
      case Filter.IntRange r -> {
        long v = e.intValue(r.attribute().position());
        yield v >= r.low() && v <= r.high();
      }
      case Filter.StringComparison s -> compare(e.stringValue(s.attribute().position()), s);
      case Filter.Aggregate a -> throw new IllegalArgumentException(STATEFUL);
    };
  }

  private static boolean compare(long v, Filter.IntComparison c) {
    return switch (c.op()) {
      case LT -> v < c.value();
      case LE -> v <= c.value();
      case GT -> v > c.value();
      case GE -> v >= c.value();
      case EQ -> v == c.value();
      case NE -> v != c.value();
    };
  }

  private static boolean compare(String v, Filter.StringComparison s) {
    return switch (s.op()) {
      case EQ -> v.equals(s.value());
      case NE -> !v.equals(s.value());
      case PREFIX -> v.startsWith(s.value());
      case SUFFIX -> v.endsWith(s.value());
      case CONTAINS -> v.contains(s.value());
      case MATCHES -> Topics.matches(s.value(), v);
    };
  }
}
