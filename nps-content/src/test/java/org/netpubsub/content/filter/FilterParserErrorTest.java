package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.SourcePosition;

/** Malformed filters: the exact message, line and column of each error. */
class FilterParserErrorTest {
  static InvalidInputException error(String text) {
    return catchThrowableOfType(
        InvalidInputException.class, () -> FilterParser.parse(Schemas.QUOTES, text));
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("", 1, 1, "empty filter"),
        Arguments.of("  \n ", 2, 2, "empty filter"),
        Arguments.of(
            "price <",
            1,
            8,
            "price is an int attribute; expected an integer but found the end of the filter"),
        Arguments.of("(price < 5", 1, 11, "expected ')' but found the end of the filter"),
        Arguments.of("(price < 5 x", 1, 12, "expected ')' but found 'x'"),
        Arguments.of(
            "price < 5)", 1, 10, "expected '&&', '||' or the end of the filter but found ')'"),
        Arguments.of("prcie < 5", 1, 1, "unknown attribute 'prcie' (did you mean 'price'?)"),
        Arguments.of("Price < 5", 1, 1, "unknown attribute 'Price' (did you mean 'price'?)"),
        Arguments.of("foo < 5", 1, 1, "unknown attribute 'foo'"),
        Arguments.of(
            "price prefix \"a\"", 1, 7, "price is an int attribute; 'prefix' needs a string"),
        Arguments.of("symbol < 5", 1, 8, "symbol is a string attribute; '<' needs an int"),
        Arguments.of("symbol in [1, 2]", 1, 8, "symbol is a string attribute; 'in' needs an int"),
        Arguments.of("price < 5000", 1, 9, "5000 is outside the domain of price [0, 1023]"),
        Arguments.of(
            "volume in [-101, 0]", 1, 12, "-101 is outside the domain of volume [-100, 100]"),
        Arguments.of(
            "symbol == \"ABCDEFGHI\"",
            1,
            11,
            "string constant \"ABCDEFGHI\" is 9 bytes long; symbol holds at most 8"),
        Arguments.of(
            "symbol contains \"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\"",
            1,
            17,
            "string constant \"\\u00e9\\u00e9\\u00e9\\u00e9\\u00e9\" is 10 bytes long;"
                + " symbol holds at most 8"),
        Arguments.of(
            "price in [5, 3]",
            1,
            11,
            "empty range [5, 3]: the low bound must not exceed the high bound"),
        Arguments.of(
            "price < 99999999999999999999",
            1,
            9,
            "integer 99999999999999999999 does not fit in 64 bits"),
        Arguments.of(
            "wide < 0x10000000000000000",
            1,
            8,
            "integer 0x10000000000000000 does not fit in 64 bits"),
        Arguments.of(
            "price < 5 &&\n  symbol == 5",
            2,
            13,
            "symbol is a string attribute; 5 is not a string (quote it: \"5\")"),
        Arguments.of("price == \"5\"", 1, 10, "price is an int attribute; \"5\" is a string"),
        Arguments.of(
            "price == GOOGL",
            1,
            10,
            "price is an int attribute; expected an integer but found 'GOOGL'"),
        Arguments.of(
            "symbol == true",
            1,
            11,
            "symbol is a string attribute; expected a string but found 'true'"),
        Arguments.of(
            "price < 5 & symbol == A", 1, 11, "unexpected character '&' (did you mean '&&'?)"),
        Arguments.of(
            "price < 5 | symbol == A", 1, 11, "unexpected character '|' (did you mean '||'?)"),
        Arguments.of("price < 5 $", 1, 11, "unexpected character '$'"),
        Arguments.of("price\u00a0< 5", 1, 6, "unexpected character U+00A0"),
        Arguments.of("symbol == \"abc", 1, 11, "unterminated string constant"),
        Arguments.of("symbol == \"ab\nc\"", 1, 11, "unterminated string constant"),
        Arguments.of(
            "symbol == \"a\\qb\"", 1, 13, "unknown escape '\\q' (use \\\" \\\\ \\n \\t \\uXXXX)"),
        Arguments.of("symbol == \"\\u12\"", 1, 12, "\\u needs four hex digits"),
        Arguments.of(
            "symbol == \"\\uD83D\"", 1, 11, "string constant has an unpaired surrogate \\uD83D"),
        Arguments.of(
            "price < 12ab",
            1,
            9,
            "price is an int attribute; expected an integer but found '12ab'"),
        Arguments.of(
            "symbol == 3M",
            1,
            11,
            "symbol is a string attribute; 3M is not a string (quote it: \"3M\")"),
        Arguments.of("price < 12a3", 1, 9, "malformed number '12a3'"),
        Arguments.of(
            "price < 1.5", 1, 9, "price is an int attribute; expected an integer but found '1.5'"),
        Arguments.of("price < 0xg", 1, 9, "malformed number '0xg'"),
        Arguments.of(
            "and == 1", 1, 1, "expected a constraint, '(', '!', 'true' or 'false' but found 'and'"),
        Arguments.of(
            "price < 5 && || price > 1",
            1,
            14,
            "expected a constraint, '(', '!', 'true' or 'false' but found '||'"),
        Arguments.of(
            "price 5",
            1,
            7,
            "expected an operator (<, <=, >, >=, ==, !=, in, prefix, suffix, contains, matches)"
                + " after 'price' but found '5'"),
        Arguments.of("price in [1 5]", 1, 13, "expected ',' but found '5'"),
        Arguments.of("price in (1, 5)", 1, 10, "expected '[' but found '('"),
        Arguments.of(
            "price < 5 ||\n\n   prcie > 3",
            3,
            4,
            "unknown attribute 'prcie' (did you mean 'price'?)"),
        Arguments.of(
            "count() > 5",
            1,
            12,
            "expected 'over' and a window (e.g. over 100ms) but found the end of the filter"),
        Arguments.of(
            "count() > 5 over 100",
            1,
            18,
            "expected a window like 100ms but found '100' (a window needs a unit: ns, us, ms, s"
                + " or m)"),
        Arguments.of(
            "count() > 5 over 100xs", 1, 18, "unknown unit 'xs' in 100xs (use ns, us, ms, s or m)"),
        Arguments.of("count() > 5 over 0ms", 1, 18, "a window must be positive: 0ms"),
        Arguments.of("count() > 5 over -3s", 1, 18, "a window must be positive: -3s"),
        Arguments.of(
            "count() > 5 over 9223372036854775807m",
            1,
            18,
            "window 9223372036854775807m is too long"),
        Arguments.of(
            "count() > 5.5 over 1s", 1, 11, "count() is compared with an integer but found '5.5'"),
        Arguments.of("count(price) > 5 over 1s", 1, 7, "expected ')' but found 'price'"),
        Arguments.of(
            "sum() > 1 over 1s", 1, 5, "expected an int attribute in sum(...) but found ')'"),
        Arguments.of(
            "avg(symbol) > 5 over 1s",
            1,
            5,
            "avg(...) needs an int attribute; symbol is a string attribute"),
        Arguments.of(
            "avg(price) in [1, 2] over 1s",
            1,
            12,
            "expected a comparison (<, <=, >, >=, ==, !=) after avg(...) but found 'in'"),
        Arguments.of(
            "avg(price) > \"x\" over 1s",
            1,
            14,
            "avg(...) is compared with a number but found \"x\""));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("malformed")
  void reportsTheReasonAtTheOffendingToken(String text, int line, int column, String reason) {
    InvalidInputException e = error(text);
    assertThat(e).as(text).isNotNull();
    assertThat(e.reason()).isEqualTo(reason);
    assertThat(e.position()).contains(new SourcePosition(line, column));
  }

  @Test
  void renderPutsTheCaretUnderTheColumn() {
    InvalidInputException e = error("price < 5 &&\n  prcie > 3");
    assertThat(e.render())
        .isEqualTo(
            "line 2, column 3: unknown attribute 'prcie' (did you mean 'price'?)\n"
                + "    prcie > 3\n"
                + "    ^");
  }

  @Test
  void keywordsCannotNameAttributes() {
    var schema =
        org.netpubsub.content.schema.Schema.builder("k").intAttribute("over", 0, 1).build();
    InvalidInputException e =
        catchThrowableOfType(
            InvalidInputException.class, () -> FilterParser.parse(schema, "over == 1"));
    assertThat(e.reason()).startsWith("expected a constraint");
  }
}
