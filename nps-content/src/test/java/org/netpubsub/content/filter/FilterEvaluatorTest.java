package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.netpubsub.content.event.Event;

/** Direct evaluation on the tree and on the normal form. */
class FilterEvaluatorTest {
  private static final Event IBM =
      Event.builder(Schemas.QUOTES)
          .set("price", 120)
          .set("symbol", "IBM")
          .set("volume", -4)
          .set("int.switch_id", 2)
          .set("wide", Long.MIN_VALUE)
          .build();

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiterString = " => ",
      value = {
        "price == 120 => true",
        "price != 120 => false",
        "price < 120 || price > 120 => false",
        "price <= 120 && price >= 120 => true",
        "price in [120, 121] => true",
        "price in [0, 119] => false",
        "symbol == IBM => true",
        "symbol != IBM => false",
        "symbol prefix I && symbol suffix BM && symbol contains B => true",
        "symbol prefix B || symbol suffix I || symbol contains X => false",
        "symbol prefix \"\" => true",
        "volume < -3 && !(volume < -4) => true",
        "int.switch_id = 2 and wide == -0x8000000000000000 => true",
        "not true or false => false",
      })
  void evaluatesTheTreeAndTheNormalFormAlike(String filter, boolean expected) {
    Filter f = FilterParser.parse(Schemas.QUOTES, filter);
    assertThat(FilterEvaluator.matches(f, IBM)).isEqualTo(expected);
    assertThat(FilterEvaluator.matches(Normalizer.toDnf(f), IBM)).isEqualTo(expected);
  }

  @Test
  void aggregatesAreLeftToTheCompilerTargetsEvenWhenShortCircuited() {
    Filter f = FilterParser.parse(Schemas.QUOTES, "true || count() > 5 over 1s");
    assertThat(FilterEvaluator.hasAggregates(f)).isTrue();
    assertThatThrownBy(() -> FilterEvaluator.matches(f, IBM))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("stateful aggregates are evaluated by the compiler targets");
    Dnf dnf =
        Normalizer.toDnf(FilterParser.parse(Schemas.QUOTES, "price > 0 && count() > 5 over 1s"));
    assertThatThrownBy(() -> FilterEvaluator.matches(dnf, IBM))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("stateful aggregates are evaluated by the compiler targets");
    assertThat(FilterEvaluator.hasAggregates(FilterParser.parse(Schemas.QUOTES, "price > 0")))
        .isFalse();
  }
}
