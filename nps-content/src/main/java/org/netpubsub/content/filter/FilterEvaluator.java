package org.netpubsub.content.filter;

import org.netpubsub.content.event.Event;

/** Direct evaluation of a filter on an event: the oracle of every differential test. */
public final class FilterEvaluator {
  private FilterEvaluator() {}

  /**
   * @throws IllegalArgumentException when the filter has stateful aggregates
   */
  public static boolean matches(Filter filter, Event event) {
    throw new UnsupportedOperationException("TODO(filter helper)");
  }

  /**
   * @throws IllegalArgumentException when the filter has stateful aggregates
   */
  public static boolean matches(Dnf dnf, Event event) {
    throw new UnsupportedOperationException("TODO(filter helper)");
  }
}
