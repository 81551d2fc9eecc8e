package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nps index event}, end to end through the command line. */
class IndexEventCommandTest {
  /** The paper's example (PLEROMA Fig. 2): prices and volumes in [0, 100). */
  static final String STOCKS_YAML =
      """
      name: stocks
      attributes:
        - name: P
          type: int
          min: 0
          max: 99
        - name: V
          type: int
          min: 0
          max: 99
      index: [P, V]
      """;

  @TempDir Path dir;
  Path schema;
  private final CliRun cli = new CliRun();

  @BeforeEach
  void writeSchema() throws IOException {
    schema = dir.resolve("stocks.yaml");
    Files.writeString(schema, STOCKS_YAML);
  }

  @Test
  void paperExampleAsText() {
    int code =
        cli.run("index", "event", "--schema", schema.toString(), "--length", "6", "P=65", "V=55");
    assertThat(code).as(cli.err()).isZero();
    assertThat(cli.out()).contains("110010").contains("ff0e:c800::").contains("6 bits");
  }

  @Test
  void paperExampleAsJson() throws IOException {
    int code =
        cli.run(
            "index",
            "event",
            "--schema",
            schema.toString(),
            "--length",
            "6",
            "--json",
            "P=65",
            "V=55");
    assertThat(code).as(cli.err()).isZero();
    JsonNode j = cli.json();
    assertThat(j.get("dz").asText()).isEqualTo("110010");
    assertThat(j.get("length").asInt()).isEqualTo(6);
    assertThat(j.get("address").asText()).isEqualTo("ff0e:c800::");
  }

  @Test
  void defaultLengthResolvesEveryValue() throws IOException {
    int code = cli.run("index", "event", "--schema", schema.toString(), "--json", "P=65", "V=55");
    assertThat(code).as(cli.err()).isZero();
    JsonNode j = cli.json();
    assertThat(j.get("length").asInt()).isEqualTo(14); // 7 bits for each of 100 values
    assertThat(j.get("dz").asText()).startsWith("110010");
  }

  @Test
  void badLengthIsBadInput() {
    int code =
        cli.run("index", "event", "--schema", schema.toString(), "--length", "113", "P=1", "V=1");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("1..112");
  }

  @Test
  void missingAttributeIsBadInput() {
    int code = cli.run("index", "event", "--schema", schema.toString(), "P=1");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("V");
  }

  @Test
  void valueOutsideTheDomainIsBadInput() {
    int code = cli.run("index", "event", "--schema", schema.toString(), "P=100", "V=1");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("P");
  }

  @Test
  void missingSchemaFileIsBadInput() {
    int code =
        cli.run("index", "event", "--schema", dir.resolve("nope.yaml").toString(), "P=1", "V=1");
    assertThat(code).isEqualTo(Nps.EXIT_BAD_INPUT);
    assertThat(cli.err()).contains("nope.yaml");
  }
}
