package org.netpubsub.controller.pubsub;

import java.nio.charset.StandardCharsets;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.FilterPrinter;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.SpatialIndex;

/**
 * A filter as the network sees it: parsed and type-checked against the schema, put in normal form,
 * and covered by at most {@code maxCells} dz cells. Refuses what flows cannot express.
 */
final class FilterCells {
  private FilterCells() {}

  /** The normal form and the cover. */
  record Compiled(Dnf dnf, String normalForm, DzSet cells) {}

  /**
   * Throws {@link InvalidInputException} (line, column, caret) for a malformed filter and {@link
   * RequestRefusedException} ({@link Refused.TooLarge}) for one over {@code maxBytes}.
   */
  static Compiled compile(SpatialIndex index, String text, int maxBytes, int maxCells) {
    int bytes = text.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > maxBytes) {
      throw new RequestRefusedException(
          new Refused.TooLarge("filter of " + bytes + " bytes is over the limit of " + maxBytes));
    }
    Dnf dnf = Normalizer.toDnf(FilterParser.parse(index.schema(), text));
    for (Conjunction c : dnf.conjunctions()) {
      if (!c.aggregates().isEmpty()) {
        throw new InvalidInputException(
            "aggregates (count, sum, avg … over) cannot be filtered by switch flows; "
                + "subscribe to the events and aggregate at the subscriber");
      }
    }
    return new Compiled(dnf, FilterPrinter.print(dnf), index.cover(dnf, maxCells));
  }
}
