package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.netpubsub.content.InvalidInputException;

/** Worked examples of the normal form, printed. */
class NormalizerTest {
  private static Dnf dnf(String filter) {
    return Normalizer.toDnf(FilterParser.parse(Schemas.QUOTES, filter));
  }

  private static String normal(String filter) {
    return FilterPrinter.print(dnf(filter));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiterString = " => ",
      value = {
        // ints: negation, contradictions, canonical intervals
        "price > 5 && price < 3 => false",
        "!(price < 10) => price >= 10",
        "!(price in [2, 5]) => price <= 1 || price >= 6",
        "price != 0 => price >= 1",
        "price >= 0 => true",
        "price <= 1023 && volume >= -100 => true",
        "price in [1, 5] && price != 3 && price != 1 => price in [2, 5] && price != 3",
        "price in [1, 3] && price != 1 && price != 2 && price != 3 => false",
        "price in [1, 5] && price in [3, 9] => price in [3, 5]",
        "price < 1 => price == 0",
        "price < 0x10 && price > 14 => price == 15",
        "!(price != 7) => price == 7",
        // constants
        "!true => false",
        "!false && true => true",
        "!(price == 1 || false) => price != 1",
        // strings: equality decides, prefixes chain, negations
        "!(symbol == \"A\") => symbol != \"A\"",
        "!(symbol prefix \"AB\") => !(symbol prefix \"AB\")",
        "symbol == IBM && symbol prefix I => symbol == \"IBM\"",
        "symbol == IBM && symbol prefix X => false",
        "symbol == IBM && symbol != IBM => false",
        "symbol == IBM && symbol == IBN => false",
        "symbol prefix AB && symbol prefix AC => false",
        "symbol prefix A && symbol prefix ABC => symbol prefix \"ABC\"",
        "symbol prefix ABC && !(symbol prefix AB) => false",
        "symbol prefix AB && !(symbol prefix X) => symbol prefix \"AB\"",
        "symbol prefix AB && !(symbol prefix ABC) => symbol prefix \"AB\" && !(symbol prefix \"ABC\")",
        "!(symbol prefix A) && !(symbol prefix AB) => !(symbol prefix \"A\")",
        "symbol suffix XY && symbol suffix Y => symbol suffix \"XY\"",
        "symbol suffix XY && symbol suffix XZ => false",
        "!(symbol suffix Y) && !(symbol suffix XY) => !(symbol suffix \"Y\")",
        "symbol contains B && symbol prefix AB => symbol prefix \"AB\"",
        "symbol contains B && symbol contains ABC => symbol contains \"ABC\"",
        "symbol contains AB && !(symbol contains A) => false",
        "symbol prefix XAB && !(symbol contains A) => false",
        "!(symbol prefix XAB) && !(symbol contains A) => !(symbol contains \"A\")",
        "symbol != X && symbol prefix A => symbol prefix \"A\"",
        "symbol prefix \"\" => true",
        "!(symbol contains \"\") => false",
        "symbol == \"\" || symbol != \"\" => symbol == \"\" || symbol != \"\"",
        // subsumption and order of first appearance
        "symbol == A || symbol prefix A => symbol prefix \"A\"",
        "price == 1 || price == 1 && volume == 2 => price == 1",
        "price == 1 && volume == 2 || price == 1 => price == 1",
        "price == 1 || price in [0, 5] || price == 9 => price <= 5 || price == 9",
        "volume == 1 || price == 1 => volume == 1 || price == 1",
        "price == 1 || price == 1 => price == 1",
        "(price == 1 || price == 2) && (volume == 1 || volume == 2)"
            + " => price == 1 && volume == 1 || price == 1 && volume == 2"
            + " || price == 2 && volume == 1 || price == 2 && volume == 2",
        "(price == 1 || price == 2) && (price == 2 || price == 3) => price == 2",
        "!(price == 1 && volume == 2) => price != 1 || volume != 2",
        // aggregates: negated comparison, canonical threshold, opaque atoms
        "!(count() > 5 over 1s) => count() <= 5 over 1s",
        "count() > 5 over 1s && count() > 5 over 1000ms => count() > 5 over 1s",
        "avg(price) > 60.50 over 250ms => avg(price) > 60.5 over 250ms",
        "sum(volume) > 100 over 1m => sum(volume) > 100 over 1m",
        "count() > 5 over 1s && price == 1 || count() > 5 over 1s => count() > 5 over 1s",
        "price == 1 && count() > 5 over 1s || price == 1 => price == 1",
      })
  void normalForms(String filter, String expected) {
    assertThat(normal(filter)).isEqualTo(expected);
  }

  @Test
  void equalConjunctionsAreEqualWhateverTheirSource() {
    assertThat(dnf("price in [1, 5] && price != 3"))
        .isEqualTo(dnf("price != 3 && price >= 1 && !(price > 5)"));
    assertThat(dnf("price in [1, 5] && price != 3").hashCode())
        .isEqualTo(dnf("price != 3 && price >= 1 && !(price > 5)").hashCode());
    assertThat(dnf("symbol prefix AB && !(symbol contains Z)"))
        .isEqualTo(dnf("!(symbol contains Z) && symbol prefix A && symbol prefix AB"));
    assertThat(dnf("price in [1, 5] && price != 3")).isNotEqualTo(dnf("price in [1, 5]"));
  }

  @Test
  void trueAndFalse() {
    assertThat(dnf("price >= 0").isTrue()).isTrue();
    assertThat(dnf("price < 0 || false").isFalse()).isTrue();
  }

  @Test
  void conjunctionsExposeTheirConstraintsByPosition() {
    Conjunction c = dnf("volume == 3 && price in [1, 5]").conjunctions().get(0);
    assertThat(c.constraints())
        .extracting(a -> a.attribute().name())
        .containsExactly("price", "volume");
    IntConstraint price = (IntConstraint) c.constraint(0).orElseThrow();
    assertThat(price.low()).isEqualTo(1);
    assertThat(price.high()).isEqualTo(5);
    assertThat(c.constraint(1)).isEmpty();
    assertThat(c.aggregates()).isEmpty();
  }

  @Test
  void refusesANormalFormOverTheLimitBeforeBuildingIt() {
    String product = "(price == 1 || price == 2) && (volume == 1 || volume == 2)";
    assertThat(Normalizer.toDnf(FilterParser.parse(Schemas.QUOTES, product), 4).conjunctions())
        .hasSize(4);
    assertThatThrownBy(() -> Normalizer.toDnf(FilterParser.parse(Schemas.QUOTES, product), 3))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("filter too large: its normal form would exceed 3 conjunctions");
    String wide = "price == 1 || price == 2 || price == 3 || price == 4";
    assertThatThrownBy(() -> Normalizer.toDnf(FilterParser.parse(Schemas.QUOTES, wide), 3))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("filter too large: its normal form would exceed 3 conjunctions");
  }

  @Test
  void overlappingOperandsThatSimplifyStayWithinTheLimit() {
    // 4 x 4 pairs, but contradictions leave 4 conjunctions.
    String same = "(price == 1 || price == 2 || price == 3 || price == 4) && " + "(price <= 4)";
    assertThat(Normalizer.toDnf(FilterParser.parse(Schemas.QUOTES, same), 4).conjunctions())
        .hasSize(4);
  }
}
