package org.netpubsub.controller.pubsub;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.FilterPrinter;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.SpatialIndex;

/**
 * A filter as the network sees it: parsed and type-checked against the schema, put in normal form,
 * and covered by at most {@code maxCells} dz cells. Refuses what flows cannot express. With a
 * region, the cover is that of {@code filter ∧ region}: the switches never deliver outside it.
 */
final class FilterCells {
  /**
   * The conjunction limit of a request's normal form: a tenth of the library's default, so one
   * hostile filter costs milliseconds, not seconds (issue 27); the cover has 64 cells anyway.
   */
  static final int MAX_CONJUNCTIONS = Normalizer.DEFAULT_MAX_CONJUNCTIONS / 10;

  private FilterCells() {}

  /**
   * The normal form and the cover; {@code cut} is the normal form of {@code filter ∧ region} (the
   * filter's without a region), what an engine compiling filters itself (Camus) installs.
   */
  record Compiled(Dnf dnf, String normalForm, DzSet cells, String cut) {}

  static Compiled compile(SpatialIndex index, String text, int maxBytes, int maxCells) {
    return compile(index, text, maxBytes, maxCells, Optional.empty());
  }

  /**
   * Throws {@link InvalidInputException} (line, column, caret) for a malformed filter and {@link
   * RequestRefusedException} for one over {@code maxBytes} ({@link Refused.TooLarge}), over the
   * work budget ({@link Refused.TooComplex}) or outside the region ({@link Refused.Forbidden}).
   */
  static Compiled compile(
      SpatialIndex index, String text, int maxBytes, int maxCells, Optional<String> region) {
    int bytes = text.getBytes(StandardCharsets.UTF_8).length;
    if (bytes > maxBytes) {
      throw new RequestRefusedException(
          new Refused.TooLarge("filter of " + bytes + " bytes is over the limit of " + maxBytes));
    }
    Filter filter = FilterParser.parse(index.schema(), text);
    Dnf dnf = normalize(filter);
    for (Conjunction c : dnf.conjunctions()) {
      if (!c.aggregates().isEmpty()) {
        throw new InvalidInputException(
            "aggregates (count, sum, avg … over) cannot be filtered by switch flows; "
                + "subscribe to the events and aggregate at the subscriber");
      }
    }
    Dnf covered = dnf;
    if (region.isPresent()) {
      covered =
          normalize(
              new Filter.And(List.of(filter, FilterParser.parse(index.schema(), region.get()))));
      if (covered.isFalse()) {
        throw new RequestRefusedException(
            new Refused.Forbidden(
                "the filter lies wholly outside the region allowed: " + region.get()));
      }
    }
    String normal = FilterPrinter.print(dnf);
    return new Compiled(
        dnf,
        normal,
        index.cover(covered, maxCells),
        covered == dnf ? normal : FilterPrinter.print(covered));
  }

  private static Dnf normalize(Filter f) {
    try {
      return Normalizer.toDnf(f, MAX_CONJUNCTIONS);
    } catch (InvalidInputException e) {
      throw new RequestRefusedException(new Refused.TooComplex(e.getMessage()));
    }
  }
}
