package org.netpubsub.client;

import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Schema;

/** Filters as the clients use them: parsed locally (errors with a caret) and evaluable exactly. */
final class Filters {
  private Filters() {}

  /**
   * The normal form of {@code text}.
   *
   * @throws org.netpubsub.content.InvalidInputException when the text is malformed
   * @throws IllegalArgumentException when it has stateful aggregates, which a host cannot check
   */
  static Dnf parseExact(Schema schema, String text, String what) {
    Dnf dnf = Normalizer.toDnf(FilterParser.parse(schema, text));
    for (Conjunction c : dnf.conjunctions()) {
      if (!c.aggregates().isEmpty()) {
        throw new IllegalArgumentException(
            what
                + " cannot use stateful aggregates (count, sum, avg): hosts check filters per event");
      }
    }
    return dnf;
  }
}
