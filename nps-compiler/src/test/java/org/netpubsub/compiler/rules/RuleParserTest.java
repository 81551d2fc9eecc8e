package org.netpubsub.compiler.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.schema.Schema;

class RuleParserTest {
  static final Schema ITCH = BuiltinSpecs.itch().schema();

  @Test
  void rulesCommentsAndBlankLines() {
    List<Rule> rules =
        RuleParser.parse(
            ITCH,
            """
            # market data for the trading desk
            stock == "GOOGL" && price > 500000 : fwd(1, 3);

            stock == "A#B" : fwd(2)   # a '#' inside a string is no comment
            price < 10000:fwd(4,4)
            """);
    assertThat(rules).hasSize(3);
    assertThat(rules.get(0).id()).isEqualTo("line 2");
    assertThat(rules.get(0).ports()).containsExactly(1, 3);
    assertThat(rules.get(1).filter()).isEqualTo("stock == \"A#B\"");
    assertThat(rules.get(2).ports()).containsExactly(4);
    assertThat(rules.get(2).id()).isEqualTo("line 5");
  }

  @Test
  void errorsNameLineAndColumnWithACaret() {
    InvalidInputException e = catchError("stock == \"GOOGL\" : fwd(1)\nprice >> 5 : fwd(2)\n");
    assertThat(e.getMessage()).startsWith("line 2, column 8");
    assertThat(e.render()).contains("price >> 5 : fwd(2)").contains("       ^");
    assertThat(catchError("  pricee > 5 : fwd(1)").getMessage())
        .startsWith("line 1, column 3")
        .contains("pricee");
    assertThat(catchError("price > 5").getMessage()).contains("expected ': fwd(PORT, …)'");
    assertThat(catchError("price > 5 : send(1)").getMessage()).contains("expected fwd(PORT");
    assertThat(catchError(": fwd(1)").getMessage()).contains("needs a filter");
    assertThat(catchError("price > 5 : fwd(99999999)").getMessage()).contains("outside 0..");
  }

  @Test
  void ruleChecksItsPorts() {
    Rule r = RuleParser.parseRule(ITCH, "price > 1 : fwd(3, 1, 3)", "s-1");
    assertThat(r.id()).isEqualTo("s-1");
    assertThat(r.ports()).containsExactly(1, 3);
    assertThat(r.sameAs(RuleParser.parseRule(ITCH, "price >= 2 : fwd(1, 3)", "s-1"))).isTrue();
    assertThatThrownBy(() -> new Rule("x", "true", r.dnf(), new int[0]))
        .hasMessageContaining("forwards nowhere");
  }

  private static InvalidInputException catchError(String text) {
    try {
      RuleParser.parse(ITCH, text);
    } catch (InvalidInputException e) {
      return e;
    }
    throw new AssertionError("no error for " + text);
  }
}
