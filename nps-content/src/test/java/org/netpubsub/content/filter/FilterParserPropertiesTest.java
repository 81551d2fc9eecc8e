package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Token.Kind;
import org.netpubsub.content.schema.Schema;

/** Printing and parsing agree; errors are reported at the leftmost offending token. */
class FilterParserPropertiesTest {
  private static final Schema SCHEMA = FilterArbitraries.MIXED;
  private static final List<Event> EVENTS = FilterArbitraries.sampleMixedEvents();

  @Provide
  Arbitrary<Filter> filters() {
    return FilterArbitraries.filters(SCHEMA, 3);
  }

  @Provide
  Arbitrary<String> garbage() {
    return Arbitraries.of(
        "$", "#", "@", ")", "]", "(", "[", ",", "&&", "||", "in", "==", "<", "5", "\"x\"", "zz",
        "prefix", "over", "!", "true", "count", "-1", "0x", "1.5", "10ms");
  }

  @Property(tries = 300)
  void parsingThePrintedFilterGivesAnEquivalentOne(@ForAll("filters") Filter filter) {
    String text = FilterPrinter.print(filter);
    Filter back = FilterParser.parse(SCHEMA, text);
    for (Event e : EVENTS) {
      assertThat(FilterEvaluator.matches(back, e))
          .as("%s on %s", text, e)
          .isEqualTo(FilterEvaluator.matches(filter, e));
    }
    assertThat(FilterPrinter.print(back)).isEqualTo(text);
  }

  @Property(tries = 300)
  void printedNormalFormsParseBackToTheSameEvents(@ForAll("filters") Filter filter) {
    Dnf dnf = Normalizer.toDnf(filter);
    Filter back = FilterParser.parse(SCHEMA, FilterPrinter.print(dnf));
    for (Event e : EVENTS) {
      assertThat(FilterEvaluator.matches(back, e)).isEqualTo(FilterEvaluator.matches(dnf, e));
    }
  }

  /**
   * Everything before an inserted token is a valid prefix, so the parser cannot complain before the
   * insertion; a character that starts no token is reported exactly where it is.
   */
  @Property(tries = 500)
  void anInsertedTokenIsNeverBlamedOnWhatPrecedesIt(
      @ForAll("filters") Filter filter,
      @ForAll("garbage") String inserted,
      @ForAll @IntRange(min = 0, max = 10_000) int where) {
    String text = FilterPrinter.print(filter);
    List<Integer> boundaries = tokenBoundaries(text);
    int at = boundaries.get(where % boundaries.size());
    String spoiled = text.substring(0, at) + " " + inserted + " " + text.substring(at);
    int insertedOffset = at + 1;
    InvalidInputException e =
        catchThrowableOfType(
            InvalidInputException.class, () -> FilterParser.parse(SCHEMA, spoiled));
    if (e == null) {
      return; // Some insertions keep the filter valid, e.g. '!' before an atom.
    }
    int reportedOffset = e.position().orElseThrow().column() - 1;
    assertThat(reportedOffset)
        .as("%s: %s", spoiled, e.getMessage())
        .isGreaterThanOrEqualTo(insertedOffset);
    if (inserted.length() == 1 && "$#@".contains(inserted)) {
      assertThat(reportedOffset).as(spoiled).isEqualTo(insertedOffset);
      assertThat(e.reason()).isEqualTo("unexpected character '" + inserted + "'");
    }
  }

  /** A valid filter cut after any token is a valid prefix: it parses or fails at its very end. */
  @Property(tries = 300)
  void aTruncatedFilterFailsOnlyAtItsEnd(
      @ForAll("filters") Filter filter, @ForAll @IntRange(min = 0, max = 10_000) int where) {
    String text = FilterPrinter.print(filter);
    List<Integer> boundaries = tokenBoundaries(text);
    String cut = text.substring(0, boundaries.get(where % boundaries.size()));
    InvalidInputException e =
        catchThrowableOfType(InvalidInputException.class, () -> FilterParser.parse(SCHEMA, cut));
    if (e != null) {
      assertThat(e.position().orElseThrow().column()).as(cut).isEqualTo(cut.length() + 1);
    }
  }

  private static List<Integer> tokenBoundaries(String text) {
    List<Integer> out = new ArrayList<>(List.of(0));
    Lexer lexer = new Lexer(text);
    for (Token t = lexer.next(); t.kind() != Kind.EOF; t = lexer.next()) {
      out.add(t.offset() + t.text().length());
    }
    return out;
  }
}
