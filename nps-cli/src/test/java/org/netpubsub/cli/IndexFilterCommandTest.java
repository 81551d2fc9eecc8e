package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nps index filter}, end to end through the command line. */
class IndexFilterCommandTest {
  @TempDir Path dir;
  Path schema;
  private final CliRun cli = new CliRun();

  @BeforeEach
  void writeSchema() throws IOException {
    schema = dir.resolve("stocks.yaml");
    Files.writeString(schema, IndexEventCommandTest.STOCKS_YAML);
  }

  JsonNode json(String... args) throws IOException {
    int code = cli.run(args);
    assertThat(code).as(cli.err()).isZero();
    return cli.json();
  }

  @Test
  void upperQuarterIsOneCell() throws IOException {
    JsonNode j =
        json(
            "index",
            "filter",
            "--schema",
            schema.toString(),
            "--length",
            "6",
            "--json",
            "P >= 50 && V >= 50");
    assertThat(j.get("cell_count").asInt()).isEqualTo(1);
    assertThat(j.get("cells").get(0).get("dz").asText()).isEqualTo("11");
    assertThat(j.get("cells").get(0).get("prefix").asText()).isEqualTo("ff0e:c000::/18");
    assertThat(j.get("covered_fraction").asDouble()).isEqualTo(0.25);
    // 50 is the midpoint of [0, 100): the cell is exactly the filter.
    assertThat(j.get("over_cover_fraction").asDouble()).isZero();
    assertThat(j.get("samples").asInt()).isEqualTo(10000);
  }

  @Test
  void paperEventAsAFilterIsItsOwnCell() throws IOException {
    JsonNode j =
        json(
            "index",
            "filter",
            "--schema",
            schema.toString(),
            "--length",
            "6",
            "--json",
            "P == 65 && V == 55");
    assertThat(j.get("cells").get(0).get("dz").asText()).isEqualTo("110010");
    assertThat(j.get("cells").get(0).get("prefix").asText()).isEqualTo("ff0e:c800::/22");
    // The 6-bit cell holds more than one (P, V): a sampled over-cover.
    assertThat(j.get("over_cover_fraction").asDouble()).isGreaterThan(0);
  }

  @Test
  void budgetLimitsTheCells() throws IOException {
    JsonNode j =
        json(
            "index",
            "filter",
            "--schema",
            schema.toString(),
            "--max-cells",
            "1",
            "--json",
            "P in [60, 70] || V < 3");
    assertThat(j.get("cell_count").asInt()).isEqualTo(1);
    assertThat(j.get("cells")).hasSize(1);
  }

  @Test
  void noSamplesNoEstimate() throws IOException {
    JsonNode j =
        json(
            "index", "filter", "--schema", schema.toString(), "--samples", "0", "--json", "P < 10");
    assertThat(j.get("over_cover_fraction").isNull()).isTrue();
    assertThat(j.get("samples").asInt()).isZero();
  }

  @Test
  void textListsCellsAndPrefixes() {
    int code =
        cli.run("index", "filter", "--schema", schema.toString(), "--length", "6", "P >= 50");
    assertThat(code).as(cli.err()).isZero();
    assertThat(cli.out())
        .contains("1 cell ")
        .contains("ff0e:8000::/17")
        .contains("50.00% of the index space")
        .contains("over-cover 0.00%");
  }

  @Test
  void badFilterIsBadInputWithACaret() {
    int code = cli.run("index", "filter", "--schema", schema.toString(), "P >= ");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("^");
  }

  @Test
  void badBudgetIsBadInput() {
    int code =
        cli.run("index", "filter", "--schema", schema.toString(), "--max-cells", "0", "P < 1");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("maxCells");
  }
}
