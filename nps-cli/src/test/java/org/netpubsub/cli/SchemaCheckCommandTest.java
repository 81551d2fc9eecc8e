package org.netpubsub.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.content.schema.SchemaLoader;

class SchemaCheckCommandTest {
  private static final Path QUOTES = Path.of("..", "examples", "schemas", "quotes.yaml");

  private final CliRun cli = new CliRun();

  @Test
  void printsASummary() throws IOException {
    String id = String.format("%08x", SchemaLoader.load(QUOTES).id());
    assertThat(cli.run("schema", "check", QUOTES.toString())).isZero();
    assertThat(cli.out())
        .isEqualTo(
            String.join(
                System.lineSeparator(),
                "schema quotes (id " + id + ")",
                "attributes:",
                "  symbol    string  max_length 8 bytes",
                "  price     int     [0, 100000]",
                "  volume    int     [0, 1000000]",
                "  exchange  string  max_length 4 bytes",
                "index: price, volume",
                ""));
    assertThat(cli.err()).isEmpty();
  }

  @Test
  void aDeviceWithoutEndIsRefusedBySizeNotReadWhole() {
    assertThat(cli.run("schema", "check", "/dev/zero")).isEqualTo(2);
    assertThat(cli.err()).contains("zero: larger than 1048576 bytes; not a schema");
    assertThat(cli.out()).isEmpty();
  }

  @Test
  void printsJson() throws IOException {
    assertThat(cli.run("schema", "check", "--json", QUOTES.toString())).isZero();
    JsonNode j = cli.json();
    assertThat(j.get("name").asText()).isEqualTo("quotes");
    assertThat(j.get("id").asText()).matches("[0-9a-f]{8}");
    assertThat(j.get("attributes").toString())
        .isEqualTo(
            "[{\"name\":\"symbol\",\"type\":\"string\",\"max_length\":8},"
                + "{\"name\":\"price\",\"type\":\"int\",\"min\":0,\"max\":100000},"
                + "{\"name\":\"volume\",\"type\":\"int\",\"min\":0,\"max\":1000000},"
                + "{\"name\":\"exchange\",\"type\":\"string\",\"max_length\":4}]");
    assertThat(j.get("index").toString()).isEqualTo("[\"price\",\"volume\"]");
    assertThat(cli.out().strip()).doesNotContain("\n");
  }

  @Test
  void thePleromaExampleIndexesEveryAttribute() {
    assertThat(cli.run("schema", "check", "--json", "../examples/schemas/pleroma-example.yaml"))
        .isZero();
    assertThat(cli.out()).contains("\"index\":[\"P\",\"V\"]");
  }

  @Test
  void badFileExitsTwoWithTheCaretMessage(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bad.yaml");
    Files.writeString(f, "attributes:\n  - name: price\n    type: int\n    min: 0\n    maxx: 9\n");
    assertThat(cli.run("schema", "check", f.toString())).isEqualTo(2);
    assertThat(cli.out()).isEmpty();
    assertThat(cli.err())
        .contains(
            "error: bad.yaml: line 5, column 5: unknown key 'maxx' in attribute 'price';"
                + " expected one of name, type, min, max")
        .contains("    maxx: 9")
        .contains("\n      ^");
  }

  @Test
  void missingFileExitsTwo() {
    assertThat(cli.run("schema", "check", "no-such.yaml")).isEqualTo(2);
    assertThat(cli.err()).contains("error: cannot read schema no-such.yaml: no such file");
  }

  @Test
  void directoryIsNotASchema(@TempDir Path dir) {
    assertThat(cli.run("schema", "check", dir.toString())).isEqualTo(2);
    assertThat(cli.err()).contains("error: cannot read schema " + dir);
  }

  @Test
  void fileIsRequired() {
    assertThat(cli.run("schema", "check")).isEqualTo(2);
    assertThat(cli.err()).contains("Missing required parameter: 'FILE'");
  }
}
