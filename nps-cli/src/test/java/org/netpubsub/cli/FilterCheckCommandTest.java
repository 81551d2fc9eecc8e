package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaWriter;

/** `nps filter check`: normal form as text and JSON, and errors with a caret. */
class FilterCheckCommandTest {
  private static final Schema QUOTES =
      Schema.builder("quotes")
          .intAttribute("price", 0, 1023)
          .stringAttribute("symbol", 8)
          .intAttribute("volume", 0, 100)
          .build();

  @TempDir Path dir;
  private Path schema;
  private final CliRun cli = new CliRun();

  @BeforeEach
  void writeSchema() throws IOException {
    schema = dir.resolve("quotes.yaml");
    Files.writeString(schema, SchemaWriter.toYaml(QUOTES));
  }

  @Test
  void printsOneConjunctionPerLineAndTheCount() {
    int code =
        cli.run(
            "filter",
            "check",
            "--schema",
            schema.toString(),
            "symbol == GOOGL && (price > 50 || volume < 10) && !(price in [100, 1023])");
    assertThat(code).isZero();
    assertThat(cli.out().lines())
        .containsExactly(
            "price in [51, 99] && symbol == \"GOOGL\"",
            "price <= 99 && symbol == \"GOOGL\" && volume <= 9",
            "2 conjunctions");
    assertThat(cli.err()).isEmpty();
  }

  @Test
  void contradictionsPrintFalse() {
    assertThat(cli.run("filter", "check", "--schema", schema.toString(), "price > 5 && price < 3"))
        .isZero();
    assertThat(cli.out().lines()).containsExactly("false", "0 conjunctions");
  }

  @Test
  void jsonCarriesTheFilterItsNormalFormAndWhetherItHasAggregates() throws IOException {
    String filter = "symbol == IBM && avg(price) > 60.5 over 250ms || price == 1";
    assertThat(cli.run("filter", "check", "--json", "--schema", schema.toString(), filter))
        .isZero();
    JsonNode json = cli.json();
    assertThat(json.get("filter").asText()).isEqualTo(filter);
    assertThat(json.get("normal_form").asText())
        .isEqualTo("symbol == \"IBM\" && avg(price) > 60.5 over 250ms || price == 1");
    assertThat(json.get("conjunctions").asInt()).isEqualTo(2);
    assertThat(json.get("aggregates").asBoolean()).isTrue();
    assertThat(cli.out().lines()).hasSize(1);
  }

  @Test
  void anUnknownAttributeExitsWithTwoAndACaretUnderIt() {
    int code = cli.run("filter", "check", "--schema", schema.toString(), "price < 5 && prcie > 3");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.out()).isEmpty();
    assertThat(cli.err().lines())
        .containsExactly(
            "error: line 1, column 14: unknown attribute 'prcie' (did you mean 'price'?)",
            "  price < 5 && prcie > 3",
            "               ^");
  }

  @Test
  void aTooLargeNormalFormIsBadInput() {
    int code =
        cli.run(
            "filter",
            "check",
            "--max-conjunctions",
            "3",
            "--schema",
            schema.toString(),
            "(price == 1 || price == 2) && (volume == 1 || volume == 2)");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("filter too large: its normal form would exceed 3 conjunctions");
  }

  @Test
  void aMissingSchemaFileIsBadInput() {
    int code = cli.run("filter", "check", "--schema", dir.resolve("nope.yaml").toString(), "true");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("cannot read schema").contains("no such file");
  }
}
