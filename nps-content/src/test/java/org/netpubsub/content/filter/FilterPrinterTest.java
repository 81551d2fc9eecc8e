package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.content.filter.Schemas.PRICE;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.netpubsub.content.filter.Filter.AggregateFunction;
import org.netpubsub.content.filter.Filter.Comparison;
import org.netpubsub.content.filter.Filter.StringOp;

/** The printed text: minimal parentheses, quoted strings, readable normal forms. */
class FilterPrinterTest {
  private static String reprint(String text) {
    return FilterPrinter.print(FilterParser.parse(Schemas.QUOTES, text));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiterString = " => ",
      value = {
        "((price < 5)) => price < 5",
        "(price < 5 || price > 9) && volume == 1 => (price < 5 || price > 9) && volume == 1",
        "price < 5 || (price > 9 && volume == 1) => price < 5 || price > 9 && volume == 1",
        "(price < 5 && price > 1) && volume == 1 => price < 5 && price > 1 && volume == 1",
        "!(price < 5 || price > 9) => !(price < 5 || price > 9)",
        "not price < 5 => !(price < 5)",
        "!!(price < 5) => !!(price < 5)",
        "!(!(price < 5) && true) => !(!(price < 5) && true)",
        "symbol == GOOGL and price > 0x10 => symbol == \"GOOGL\" && price > 16",
        "price in [1,5] => price in [1, 5]",
        "volume = -3 => volume == -3",
        "!true || false => !true || false",
        "avg(price) > 60.50 over 250ms => avg(price) > 60.50 over 250ms",
        "count() <= 5 over 60s => count() <= 5 over 1m",
        "sum(volume) != 0 over 1000us => sum(volume) != 0 over 1ms",
        "count() > 0 over 1500ms => count() > 0 over 1500ms",
        "count() > 0 over 1000000ns => count() > 0 over 1ms",
      })
  void printsWithMinimalParentheses(String in, String out) {
    assertThat(reprint(in)).isEqualTo(out);
  }

  @Test
  void quotesEveryStringWithEscapes() {
    var schema =
        org.netpubsub.content.schema.Schema.builder("t").stringAttribute("symbol", 32).build();
    var symbol = (org.netpubsub.content.schema.StringAttribute) schema.attribute(0);
    Filter f = new Filter.StringComparison(symbol, StringOp.EQ, "a\"b\\c\nd\te\u0001\u00e9");
    String text = FilterPrinter.print(f);
    assertThat(text).isEqualTo("symbol == \"a\\\"b\\\\c\\nd\\te\\u0001\u00e9\"");
    assertThat(FilterParser.parse(schema, text)).isEqualTo(f);
  }

  @Test
  void emptyOperandListsAreTheConstants() {
    assertThat(FilterPrinter.print(new Filter.And(List.of()))).isEqualTo("true");
    assertThat(FilterPrinter.print(new Filter.Or(List.of()))).isEqualTo("false");
    Filter single =
        new Filter.Not(new Filter.And(List.of(new Filter.IntComparison(PRICE, Comparison.LT, 5))));
    assertThat(FilterPrinter.print(single)).isEqualTo("!(price < 5)");
  }

  @Test
  void aggregatesWithoutParserHelp() {
    Filter a =
        new Filter.Aggregate(
            AggregateFunction.AVG,
            PRICE,
            Comparison.GE,
            new BigDecimal("1E+2"),
            Duration.ofMinutes(2));
    assertThat(FilterPrinter.print(a)).isEqualTo("avg(price) >= 100 over 2m");
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiterString = " => ",
      value = {
        "price == 7 => price == 7",
        "price in [3, 9] => price in [3, 9]",
        "price >= 3 => price >= 3",
        "price <= 3 => price <= 3",
        "price != 3 => price != 3",
        "price in [0, 9] && price != 4 => price <= 9 && price != 4",
        "price != 3 && price != 9 && price >= 2 => price >= 2 && price != 3 && price != 9",
        "symbol != B && symbol != A => symbol != \"A\" && symbol != \"B\"",
        "!(symbol suffix X) && symbol contains Y"
            + " => symbol contains \"Y\" && !(symbol suffix \"X\")",
        "price < 0 => false",
        "price >= 0 => true",
      })
  void printsNormalForms(String in, String out) {
    assertThat(FilterPrinter.print(Normalizer.toDnf(FilterParser.parse(Schemas.QUOTES, in))))
        .isEqualTo(out);
  }

  @Test
  void printsOneConjunction() {
    Dnf dnf = Normalizer.toDnf(FilterParser.parse(Schemas.QUOTES, "symbol == A && price > 5"));
    assertThat(FilterPrinter.print(dnf.conjunctions().get(0)))
        .isEqualTo("price >= 6 && symbol == \"A\"");
  }
}
