package org.netpubsub.content.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.SourcePosition;
import org.netpubsub.content.schema.Schema;

/** Inputs built to hurt: typed errors only, quickly, with bounded memory and stack. */
class HostileInputTest {
  /** CPU time of the working thread, not wall time: see {@link CpuBound}. */
  private static final Duration FAST =
      Duration.ofSeconds(5 * Long.getLong("nps.test.timeoutScale", 1));

  /** Forty int attributes a0 .. a39 with domain [0, 1000]. */
  private static final Schema FORTY = forty();

  private static Schema forty() {
    Schema.Builder b = Schema.builder("forty");
    for (int i = 0; i < 40; i++) {
      b.intAttribute("a" + i, 0, 1000);
    }
    return b.stringAttribute("s", 16).build();
  }

  private static InvalidInputException failure(Supplier<?> action) {
    return CpuBound.within(
        FAST, () -> catchThrowableOfType(InvalidInputException.class, action::get));
  }

  private static InvalidInputException parseFailure(String text) {
    return failure(() -> FilterParser.parse(Schemas.QUOTES, text));
  }

  private static InvalidInputException normalFailure(String text) {
    return failure(() -> Normalizer.toDnf(FilterParser.parse(FORTY, text)));
  }

  @Test
  void aHundredThousandOpeningParenthesesAreRefusedWithoutStackOverflow() {
    assertThat(parseFailure("(".repeat(100_000)).reason()).startsWith("filter too long");
  }

  @Test
  void nestingIsCutAtTheLevelPastTheLimit() {
    InvalidInputException parens = parseFailure("(".repeat(60_000));
    assertThat(parens.reason()).isEqualTo("filter nests deeper than 200 levels");
    assertThat(parens.position()).contains(new SourcePosition(1, 201));
    InvalidInputException nots = parseFailure("!".repeat(60_000) + "price == 1");
    assertThat(nots.reason()).isEqualTo("filter nests deeper than 200 levels");
    assertThat(nots.position()).contains(new SourcePosition(1, 201));
    InvalidInputException mixed = parseFailure("!(".repeat(30_000));
    assertThat(mixed.position()).contains(new SourcePosition(1, 201));
  }

  @Test
  void aMegabyteIsRefusedBeforeItIsRead() {
    InvalidInputException e = parseFailure("price == 1 || ".repeat(75_000) + "price == 2");
    assertThat(e.reason()).isEqualTo("filter too long: more than 65536 bytes (64 KiB)");
    assertThat(e.position()).isEmpty();
    // Multi-byte characters count by their UTF-8 length.
    assertThat(parseFailure("symbol == \"" + "\u00e9".repeat(40_000) + "\"").reason())
        .startsWith("filter too long");
  }

  @Test
  void aLongButLegalFilterParsesQuickly() {
    StringBuilder t = new StringBuilder("volume <= 100");
    for (int i = 0; i < 3_000; i++) {
      t.append(" && volume != ").append(i % 200 - 100);
    }
    String text = t.toString();
    Filter f = CpuBound.within(FAST, () -> FilterParser.parse(Schemas.QUOTES, text));
    Dnf dnf = CpuBound.within(FAST, () -> Normalizer.toDnf(f));
    assertThat(FilterPrinter.print(dnf)).isEqualTo("volume == 100");
  }

  @Test
  void anExponentialProductIsRefusedBeforeItIsBuilt() {
    List<String> pairs = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      pairs.add("(a" + i + " == 1 || a" + i + " == 2)");
    }
    InvalidInputException e = normalFailure(String.join(" && ", pairs));
    assertThat(e.reason())
        .isEqualTo("filter too large: its normal form would exceed 10000 conjunctions");
    // Thirteen pairs give 8192 conjunctions: within the limit, and fast.
    Dnf dnf =
        CpuBound.within(
            FAST,
            () ->
                Normalizer.toDnf(
                    FilterParser.parse(FORTY, String.join(" && ", pairs.subList(0, 13)))));
    assertThat(dnf.conjunctions()).hasSize(8192);
  }

  @Test
  void aWideDisjunctionIsRefusedPastTheLimit() {
    List<String> atoms = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      atoms.add("a1 == " + i + " && a2 != " + i);
    }
    String text = String.join(" || ", atoms);
    InvalidInputException e = failure(() -> Normalizer.toDnf(FilterParser.parse(FORTY, text), 150));
    assertThat(e.reason())
        .isEqualTo("filter too large: its normal form would exceed 150 conjunctions");
  }

  @Test
  void longConjunctionsTimesWideDisjunctionsRunOutOfBudget() {
    // 100 x 100 conjunctions, each then carrying 2000 excluded points: 20 million elements.
    StringBuilder t = new StringBuilder("(a1 == 0");
    for (int i = 1; i < 100; i++) {
      t.append(" || a1 == ").append(i);
    }
    t.append(") && (a2 == 0");
    for (int i = 1; i < 100; i++) {
      t.append(" || a2 == ").append(i);
    }
    t.append(")");
    for (int i = 1; i <= 2000; i++) {
      t.append(" && a3 != ").append(i % 999 + 1).append(" && a4 != ").append(i % 998 + 1);
    }
    InvalidInputException e = normalFailure(t.toString());
    assertThat(e.reason())
        .startsWith("filter too large: bringing it into normal form takes more than");
  }

  @Test
  void manyStringDemandsInManyConjunctionsRunOutOfBudget() {
    StringBuilder t = new StringBuilder("(a1 == 0");
    for (int i = 1; i < 100; i++) {
      t.append(" || a1 == ").append(i);
    }
    t.append(") && (a2 == 0");
    for (int i = 1; i < 100; i++) {
      t.append(" || a2 == ").append(i);
    }
    t.append(") && (a1 >= 0 || s == x)");
    for (int i = 0; i < 2000; i++) {
      t.append(" && !(s contains \"").append(String.format("%04d", i)).append("\")");
    }
    InvalidInputException e = normalFailure(t.toString());
    assertThat(e.reason()).startsWith("filter too large");
  }

  private static String square(String op, String last) {
    StringBuilder t = new StringBuilder("(a1 " + op + " 0");
    for (int i = 1; i < 100; i++) {
      t.append(" || a1 ").append(op).append(' ').append(i);
    }
    t.append(") && (a2 ").append(op).append(" 0");
    for (int i = 1; i < 100; i++) {
      t.append(" || a2 ").append(op).append(' ').append(i);
    }
    return t.append(") && ").append(last).toString();
  }

  @Test
  void tenThousandEqualityConjunctionsNeedNoQuadraticWork() {
    // The last operand overlaps the first, so every product member is tested for inclusion.
    Dnf dnf =
        CpuBound.within(
            FAST, () -> Normalizer.toDnf(FilterParser.parse(FORTY, square("==", "a1 <= 999"))));
    assertThat(dnf.conjunctions()).hasSize(10_000);
  }

  @Test
  void tenThousandConjunctionsWithoutEqualitiesEndFastOneWayOrTheOther() {
    InvalidInputException e = normalFailure(square("!=", "a1 <= 999"));
    assertThat(e.reason()).startsWith("filter too large: bringing it into normal form takes more");
  }
}
