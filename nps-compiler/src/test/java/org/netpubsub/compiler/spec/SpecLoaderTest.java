package org.netpubsub.compiler.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.event.Event;

class SpecLoaderTest {
  @Test
  void aSpecWithEveryKindOfField() {
    MessageSpec s =
        SpecLoader.parse(
            """
            name: orders
            fields:
              - name: stock
                type: string
                bytes: 8
                pad: " "
                match: exact
              - name: price
                type: int
                bits: 32
              - name: ref
                type: int
                bits: 64
                match: lpm
            """,
            "orders.yaml");
    assertThat(s.name()).isEqualTo("orders");
    assertThat(s.fields()).extracting(QueryField::name).containsExactly("stock", "price", "ref");
    assertThat(s.field(0).match()).isEqualTo(MatchKind.EXACT);
    assertThat(s.field(1).max()).isEqualTo((1L << 32) - 1);
    assertThat(s.field(2).max()).isEqualTo(-1L);
    Event e = Event.builder(s.schema()).set("stock", "AB").set("price", 7).set("ref", 9).build();
    long[] v = s.values(e);
    assertThat(v[0]).isEqualTo(0x4142_2020_2020_2020L); // "AB" then six spaces
    assertThat(v[1]).isEqualTo(7);
  }

  @Test
  void aSchemaIsASpecToo() {
    MessageSpec s =
        SpecLoader.parse(
            """
            name: quotes
            attributes:
              - {name: symbol, type: string, max_length: 12}
              - {name: price, type: int, min: -50, max: 50}
            """,
            "quotes.yaml");
    assertThat(s.field(0).width()).isEqualTo(64);
    assertThat(s.field(1).width()).isEqualTo(7);
    assertThat(s.field(1).encode(-50)).isZero();
  }

  @Test
  void errorsAreLocated() {
    assertThat(error("name: x\nfields:\n  - name: a\n    type: float\n"))
        .contains("x.yaml: line 4, column 11")
        .contains("type must be int or string");
    assertThat(error("name: x\nfields:\n  - name: a\n    type: int\n    bits: 65\n"))
        .contains("bits must be 1..64");
    assertThat(error("name: x\nfields:\n  - name: a\n    type: int\n    bytes: 2\n"))
        .contains("an int field has bits");
    assertThat(
            error("name: x\nfields:\n  - name: a\n    type: string\n    bytes: 2\n    pad: ab\n"))
        .contains("pad must be one ASCII character");
    assertThat(error("name: x\nfields: []\n")).contains("non-empty list");
    assertThat(error("name: x\nfield: []\n")).contains("unknown key 'field'");
    assertThat(error("name: x\nfields:\n  - {name: a, type: int, bits: 3, match: fuzzy}\n"))
        .contains("exact, range or lpm");
    assertThat(error("")).contains("empty document");
  }

  private static String error(String yaml) {
    try {
      SpecLoader.parse(yaml, "x.yaml");
    } catch (InvalidInputException e) {
      return e.getMessage();
    }
    throw new AssertionError("no error");
  }

  @Test
  void builtins() {
    assertThat(BuiltinSpecs.named("itch").orElseThrow().fields()).hasSize(4);
    assertThat(BuiltinSpecs.named("int").orElseThrow().schema().attribute("int.hop_latency"))
        .isPresent();
    assertThat(BuiltinSpecs.named("nope")).isEmpty();
    assertThatThrownBy(() -> MatchKind.parse("x")).hasMessageContaining("exact, range or lpm");
  }
}
