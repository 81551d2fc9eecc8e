package org.netpubsub.content.index;

import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.IntConstraint;
import org.netpubsub.content.filter.StringConstraint;

/**
 * Stateless evaluation of a {@link Dnf} on one event, attribute constraint by attribute constraint.
 * Aggregates (stateful, over windows) are taken as satisfied: the index can only ever filter on
 * what a single event carries, so this is the upper bound a cover must contain.
 */
final class ConjunctionMatch {
  private ConjunctionMatch() {}

  static boolean matches(Dnf dnf, Event event) {
    for (Conjunction c : dnf.conjunctions()) {
      if (matches(c, event)) {
        return true;
      }
    }
    return false;
  }

  static boolean matches(Conjunction conjunction, Event event) {
    for (AttributeConstraint a : conjunction.constraints()) {
      if (!accepts(a, event)) {
        return false;
      }
    }
    return true;
  }

  /** Whether the constraint accepts the event's value of its attribute. */
  static boolean accepts(AttributeConstraint constraint, Event event) {
    int p = constraint.attribute().position();
    return switch (constraint) {
      case IntConstraint c -> c.accepts(event.intValue(p));
      case StringConstraint c -> c.accepts(event.stringValue(p));
    };
  }
}
