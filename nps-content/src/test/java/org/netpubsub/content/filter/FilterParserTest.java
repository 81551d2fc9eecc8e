package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.netpubsub.content.filter.Schemas.PRICE;
import static org.netpubsub.content.filter.Schemas.QUOTES;
import static org.netpubsub.content.filter.Schemas.SWITCH;
import static org.netpubsub.content.filter.Schemas.SYMBOL;
import static org.netpubsub.content.filter.Schemas.VOLUME;
import static org.netpubsub.content.filter.Schemas.WIDE;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.netpubsub.content.filter.Filter.AggregateFunction;
import org.netpubsub.content.filter.Filter.Comparison;
import org.netpubsub.content.filter.Filter.StringOp;

/** Well-formed filters and the typed trees they parse into. */
class FilterParserTest {
  private static Filter parse(String text) {
    return FilterParser.parse(QUOTES, text);
  }

  private static Filter price(Comparison op, long v) {
    return new Filter.IntComparison(PRICE, op, v);
  }

  private static Filter symbol(StringOp op, String v) {
    return new Filter.StringComparison(SYMBOL, op, v);
  }

  @Test
  void comparisonsOnBothTypes() {
    assertThat(parse("price < 5 && symbol == \"IBM\""))
        .isEqualTo(new Filter.And(List.of(price(Comparison.LT, 5), symbol(StringOp.EQ, "IBM"))));
  }

  @Test
  void andBindsTighterThanOrAndNotTighterThanAnd() {
    assertThat(parse("price == 1 || price == 2 && !price == 3"))
        .isEqualTo(
            new Filter.Or(
                List.of(
                    price(Comparison.EQ, 1),
                    new Filter.And(
                        List.of(
                            price(Comparison.EQ, 2), new Filter.Not(price(Comparison.EQ, 3)))))));
  }

  @Test
  void keywordOperatorsEqualSymbols() {
    assertThat(parse("not (price > 1 and price < 9) or false"))
        .isEqualTo(parse("!(price > 1 && price < 9) || false"));
  }

  @Test
  void chainsAreFlattenedAndParenthesesKeepTheirGroup() {
    assertThat(parse("price > 1 && price > 2 && price > 3"))
        .isEqualTo(
            new Filter.And(
                List.of(
                    price(Comparison.GT, 1), price(Comparison.GT, 2), price(Comparison.GT, 3))));
    assertThat(parse("(price > 1 || price > 2) && true"))
        .isEqualTo(
            new Filter.And(
                List.of(
                    new Filter.Or(List.of(price(Comparison.GT, 1), price(Comparison.GT, 2))),
                    new Filter.Constant(true))));
  }

  @Test
  void bareWordsAreStringConstantsAsCamusWritesThem() {
    assertThat(parse("symbol == GOOGL && price > 50"))
        .isEqualTo(new Filter.And(List.of(symbol(StringOp.EQ, "GOOGL"), price(Comparison.GT, 50))));
    assertThat(parse("symbol prefix a.b")).isEqualTo(symbol(StringOp.PREFIX, "a.b"));
  }

  @Test
  void dottedNamesAndTheSingleEqualsOfCamusTelemetryFilters() {
    assertThat(parse("int.switch_id = 2 and price > 100"))
        .isEqualTo(
            new Filter.And(
                List.of(
                    new Filter.IntComparison(SWITCH, Comparison.EQ, 2),
                    price(Comparison.GT, 100))));
  }

  @ParameterizedTest
  @CsvSource({
    "0x1F, 31",
    "0X1f, 31",
    "-5, -5",
    "-0x10, -16",
    "9223372036854775807, 9223372036854775807",
    "-9223372036854775808, -9223372036854775808",
    "0x7FFFFFFFFFFFFFFF, 9223372036854775807"
  })
  void integersInDecimalAndHexWithTheFull64BitRange(String literal, long value) {
    assertThat(parse("wide == " + literal))
        .isEqualTo(new Filter.IntComparison(WIDE, Comparison.EQ, value));
  }

  @Test
  void negativeConstantsNeedNoSpace() {
    assertThat(parse("volume>-5")).isEqualTo(new Filter.IntComparison(VOLUME, Comparison.GT, -5));
  }

  @Test
  void rangesAreInclusive() {
    assertThat(parse("price in [1, 5]")).isEqualTo(new Filter.IntRange(PRICE, 1, 5));
    assertThat(parse("volume in [-7,-7]")).isEqualTo(new Filter.IntRange(VOLUME, -7, -7));
  }

  @Test
  void stringEscapes() {
    assertThat(parse("symbol == \"a\\\"b\\\\\\n\\t\\u0041\""))
        .isEqualTo(symbol(StringOp.EQ, "a\"b\\\n\tA"));
    // A surrogate pair is one code point of four UTF-8 bytes.
    assertThat(parse("symbol contains \"\\uD83D\\uDE00\""))
        .isEqualTo(symbol(StringOp.CONTAINS, "\uD83D\uDE00"));
  }

  @Test
  void everyStringOperator() {
    for (StringOp op : StringOp.PLAIN) {
      assertThat(parse("symbol " + op.symbol() + " \"AB\"")).isEqualTo(symbol(op, "AB"));
    }
  }

  @Test
  void aggregates() {
    assertThat(parse("count() > 5 over 100ms"))
        .isEqualTo(
            new Filter.Aggregate(
                AggregateFunction.COUNT,
                null,
                Comparison.GT,
                BigDecimal.valueOf(5),
                Duration.ofMillis(100)));
    assertThat(parse("sum(volume) >= -10 over 1s"))
        .isEqualTo(
            new Filter.Aggregate(
                AggregateFunction.SUM,
                VOLUME,
                Comparison.GE,
                BigDecimal.valueOf(-10),
                Duration.ofSeconds(1)));
    assertThat(parse("symbol == GOOGL && avg(price) > 60.5 over 250ms"))
        .isEqualTo(
            new Filter.And(
                List.of(
                    symbol(StringOp.EQ, "GOOGL"),
                    new Filter.Aggregate(
                        AggregateFunction.AVG,
                        PRICE,
                        Comparison.GT,
                        new BigDecimal("60.5"),
                        Duration.ofMillis(250)))));
  }

  @ParameterizedTest
  @CsvSource({"7ns, PT0.000000007S", "7us, PT0.000007S", "7s, PT7S", "7m, PT7M"})
  void windowUnits(String window, String iso) {
    Filter.Aggregate a = (Filter.Aggregate) parse("count() < 3 over " + window);
    assertThat(a.window()).isEqualTo(Duration.parse(iso));
  }

  @Test
  void multiLineFiltersAndConstants() {
    assertThat(parse("(\n  price == 1\n)\n\t|| true"))
        .isEqualTo(new Filter.Or(List.of(price(Comparison.EQ, 1), new Filter.Constant(true))));
  }

  @Test
  void nestingUpToTheLimitIsAccepted() {
    String deep = "(".repeat(Parser.MAX_DEPTH) + "price == 1" + ")".repeat(Parser.MAX_DEPTH);
    assertThat(parse(deep)).isEqualTo(price(Comparison.EQ, 1));
    Filter negated = parse("!".repeat(Parser.MAX_DEPTH) + "price == 1");
    assertThat(FilterPrinter.print(negated)).startsWith("!!!").endsWith("!(price == 1)");
  }
}
