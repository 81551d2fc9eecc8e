package org.netpubsub.content.index;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.Schema;

/**
 * PLEROMA's dimension selection (§III-C): index the dimensions along which the current events match
 * very different numbers of subscriptions. For dimension d and event e, m_d(e) counts the
 * subscriptions that e matches along d alone (some conjunction has no constraint on d, or one that
 * accepts e's value); the score of d is the variance of m_d over the events. A dimension that every
 * event matches for every subscription scores 0: indexing it filters nothing.
 */
public final class DimensionSelector {
  private DimensionSelector() {}

  /** Every attribute of the schema with its score, best first; ties in schema order. */
  public static List<DimensionScore> rank(
      Schema schema, List<Dnf> subscriptions, List<Event> events) {
    List<DimensionScore> out = new ArrayList<>();
    for (Attribute a : schema.attributes()) {
      out.add(new DimensionScore(a, variance(a, subscriptions, events)));
    }
    // List.sort is stable, so equal scores keep schema order.
    out.sort(Comparator.comparingDouble(DimensionScore::score).reversed());
    return List.copyOf(out);
  }

  /** The names of the {@code k} best dimensions (fewer if the schema has fewer). */
  public static List<String> select(
      Schema schema, List<Dnf> subscriptions, List<Event> events, int k) {
    if (k < 0) {
      throw new IllegalArgumentException("k must be ≥ 0, got " + k);
    }
    return rank(schema, subscriptions, events).stream()
        .limit(k)
        .map(s -> s.attribute().name())
        .toList();
  }

  /** Population variance of m_d(e) over the events; 0 without events. */
  private static double variance(Attribute d, List<Dnf> subscriptions, List<Event> events) {
    if (events.isEmpty()) {
      return 0;
    }
    double sum = 0;
    double sumSquares = 0;
    for (Event e : events) {
      int m = 0;
      for (Dnf s : subscriptions) {
        m += matchesAlong(s, d, e) ? 1 : 0;
      }
      sum += m;
      sumSquares += (double) m * m;
    }
    double mean = sum / events.size();
    return Math.max(0, sumSquares / events.size() - mean * mean);
  }

  private static boolean matchesAlong(Dnf subscription, Attribute d, Event e) {
    for (Conjunction c : subscription.conjunctions()) {
      Optional<AttributeConstraint> on = c.constraint(d.position());
      if (on.isEmpty() || ConjunctionMatch.accepts(on.get(), e)) {
        return true;
      }
    }
    return false;
  }
}
