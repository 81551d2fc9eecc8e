package org.netpubsub.content.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.SourcePosition;

class SchemaLoaderTest {
  private static final Path EXAMPLES = Path.of("..", "examples", "schemas");

  @Test
  void loadsTheQuotesExample() throws IOException {
    Schema s = SchemaLoader.load(EXAMPLES.resolve("quotes.yaml"));
    assertThat(s.name()).isEqualTo("quotes");
    assertThat(s.attributes())
        .containsExactly(
            new StringAttribute("symbol", 0, 8),
            new IntAttribute("price", 1, 0, 100_000),
            new IntAttribute("volume", 2, 0, 1_000_000),
            new StringAttribute("exchange", 3, 4));
    assertThat(s.indexDimensions()).extracting(Attribute::name).containsExactly("price", "volume");
  }

  @Test
  void loadsThePleromaExample() throws IOException {
    Schema s = SchemaLoader.load(EXAMPLES.resolve("pleroma-example.yaml"));
    assertThat(s.name()).isEqualTo("pleroma-example");
    assertThat(s.attributes())
        .containsExactly(new IntAttribute("P", 0, 0, 99), new IntAttribute("V", 1, 0, 99));
    assertThat(s.indexDimensions()).isEqualTo(s.attributes());
  }

  @Test
  void nameDefaultsToTheFileNameWithoutExtension(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("ticks.v2.yaml");
    Files.writeString(f, "attributes:\n  - {name: a, type: int, min: -5, max: 5}\n");
    assertThat(SchemaLoader.load(f).name()).isEqualTo("ticks.v2");
    assertThat(
            SchemaLoader.parse("attributes: [{name: a, type: string, max_length: 0}]", null).name())
        .isEqualTo("schema");
  }

  @Test
  void readsFullRangeIntegersAndFlowStyle() {
    Schema s =
        SchemaLoader.parse(
            "{name: wide, attributes: [{name: x.y_z, type: int, min: -9223372036854775808,"
                + " max: +9223372036854775807}], index: []}",
            "w.yaml");
    assertThat(s.attribute(0))
        .isEqualTo(new IntAttribute("x.y_z", 0, Long.MIN_VALUE, Long.MAX_VALUE));
    assertThat(s.indexDimensions()).isEmpty();
  }

  @Test
  void missingFileIsAnIoException() {
    assertThatThrownBy(() -> SchemaLoader.load(Path.of("no/such/file.yaml")))
        .isInstanceOf(NoSuchFileException.class);
  }

  @Test
  void invalidUtf8FileIsRefused(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("bad.yaml");
    Files.write(f, new byte[] {'n', 'a', 'm', 'e', ':', ' ', (byte) 0xC3, (byte) 0x28});
    assertThatThrownBy(() -> SchemaLoader.load(f))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("bad.yaml: not valid UTF-8 text");
  }

  @Test
  void errorMessageStartsWithFileAndPositionAndRendersACaret() {
    String yaml =
        """
        name: quotes
        attributes:
          - name: price
            type: int
            min: 0
            max: 10
            maxx: 12
        """;
    InvalidInputException e = error(yaml);
    assertThat(e.getMessage())
        .isEqualTo(
            "quotes.yaml: line 7, column 5: unknown key 'maxx' in attribute 'price';"
                + " expected one of name, type, min, max");
    assertThat(e.position()).contains(new SourcePosition(7, 5));
    assertThat(e.render()).endsWith("\n      maxx: 12\n      ^");
  }

  @Test
  void unknownTopLevelKey() {
    expect(
        "name: q\nattribute: []\n",
        2,
        1,
        "unknown key 'attribute' in a schema; expected one of name, attributes, index, layout");
  }

  @Test
  void wrongTypes() {
    expect(attr("type: int\n    min: abc\n    max: 3"), 5, 10, "min must be an integer, got 'abc'");
    expect(
        attr("type: int\n    min: \"1\"\n    max: 3"),
        5,
        10,
        "min must be an integer, got the quoted string '1'");
    expect(attr("type: int\n    min: 1.5\n    max: 3"), 5, 10, "min must be an integer, got '1.5'");
    expect(
        attr("type: int\n    min: 0x10\n    max: 3"), 5, 10, "min must be an integer, got '0x10'");
    expect(
        attr("type: int\n    min: [1]\n    max: 3"), 5, 10, "min must be an integer, got a list");
    expect(attr("type: int\n    min: 1\n    max:"), 6, 9, "max must be an integer, got nothing");
    expect(attr("type: float"), 4, 11, "type must be int, string or topic, got 'float'");
    expect(attr("type: [int]"), 4, 11, "type must be a string, got a list");
    expect("attributes: {a: 1}\n", 1, 13, "attributes must be a list of attributes, got a mapping");
    expect(
        "attributes:\n  - price\n",
        2,
        5,
        "attribute #1 must be a mapping with keys name, type, ..., got 'price'");
    expect(
        "attributes: [{name: a, type: int, min: 0, max: 1}]\nindex: price\n",
        2,
        8,
        "index must be a list of attribute names");
  }

  @Test
  void missingKeys() {
    expect("name: q\n", 1, 1, "missing key 'attributes' in a schema");
    expect("attributes:\n  - type: int\n", 2, 5, "missing key 'name' in attribute #1");
    expect(
        attr("min: 1"),
        3,
        5,
        "missing key 'type' in attribute 'a'; the type is int, string or topic");
    expect(
        attr("type: int\n    min: 1"),
        3,
        5,
        "missing key 'max' in attribute 'a'; an int attribute needs min and max");
    expect(attr("type: string"), 3, 5, "missing key 'max_length' in attribute 'a'");
  }

  @Test
  void keysOfTheOtherTypeGetAHint() {
    expect(
        attr("type: int\n    min: 1\n    max: 2\n    max_length: 3"),
        7,
        5,
        "max_length applies to string attributes; 'a' is an int attribute");
    expect(
        attr("type: string\n    max_length: 3\n    min: 0"),
        6,
        5,
        "min applies to int attributes; 'a' is a string attribute");
  }

  @Test
  void domainAndLengthBounds() {
    expect(
        attr("type: int\n    min: 5\n    max: 3"),
        5,
        10,
        "min 5 is greater than max 3 (attribute 'a')");
    expect(
        attr("type: int\n    min: 0\n    max: 9223372036854775808"),
        6,
        10,
        "max 9223372036854775808 is outside the 64-bit integer range");
    expect(
        attr("type: int\n    min: -9223372036854775809\n    max: 0"),
        5,
        10,
        "is outside the 64-bit integer range");
    expect(attr("type: string\n    max_length: -1"), 5, 17, "max_length -1 is outside [0, 65535]");
    expect(
        attr("type: string\n    max_length: 65536"),
        5,
        17,
        "max_length 65536 is outside [0, 65535]");
    assertThat(SchemaLoader.parse(attr("type: string\n    max_length: 65535"), "x").attribute(0))
        .isEqualTo(new StringAttribute("a", 0, 65535));
  }

  @Test
  void names() {
    expect(
        "attributes:\n  - {name: 1x, type: int, min: 0, max: 1}\n",
        2,
        12,
        "invalid attribute name '1x'");
    expect(
        "attributes:\n  - {name: a..b, type: int, min: 0, max: 1}\n",
        2,
        12,
        "invalid attribute name 'a..b'");
    expect(
        "attributes:\n  - {name: a-b, type: int, min: 0, max: 1}\n",
        2,
        12,
        "invalid attribute name 'a-b'");
    expect("attributes:\n  - {name: '', type: int, min: 0, max: 1}\n", 2, 12, "must not be empty");
    for (String word :
        List.of(
            "and",
            "OR",
            "not",
            "true",
            "False",
            "in",
            "prefix",
            "suffix",
            "contains",
            "over",
            "count",
            "sum",
            "avg")) {
      expect(
          "attributes:\n  - {name: " + word + ", type: int, min: 0, max: 1}\n",
          2,
          12,
          "'" + word + "' is a word of the filter language");
    }
    expect(
        "name: my quotes\nattributes: [{name: a, type: int, min: 0, max: 1}]\n",
        1,
        7,
        "invalid schema name 'my quotes'");
    assertThat(
            SchemaLoader.parse("attributes: [{name: int.count, type: int, min: 0, max: 1}]", "x")
                .attribute(0)
                .name())
        .isEqualTo("int.count");
  }

  @Test
  void duplicatesAndIndex() {
    expect(
        "attributes:\n  - {name: a, type: int, min: 0, max: 1}\n  - {name: a, type: string, max_length: 1}\n",
        3,
        12,
        "duplicate attribute name 'a'; first defined at line 2");
    expect(
        attr("type: int\n    min: 0\n    min: 1\n    max: 2"),
        6,
        5,
        "duplicate key 'min' in attribute #1; first given at line 5");
    expect("attributes: []\n", 1, 13, "attributes must list at least one attribute");
    expect(
        "attributes: [{name: a, type: int, min: 0, max: 1}]\nindex: [a, b]\n",
        2,
        12,
        "index names unknown attribute 'b'; the attributes are a");
    expect(
        "attributes: [{name: a, type: int, min: 0, max: 1}]\nindex: [a, a]\n",
        2,
        12,
        "index names 'a' twice");
    expect(
        "attributes: [{name: a, type: int, min: 0, max: 1}]\nindex: [[a]]\n",
        2,
        9,
        "index entry must be a string, got a list");
  }

  @Test
  void documentShape() {
    expect(
        "- a\n- b\n",
        1,
        1,
        "a schema must be a mapping with keys name, attributes, index, layout, got a list");
    expect(
        "hello\n",
        1,
        1,
        "a schema must be a mapping with keys name, attributes, index, layout, got 'hello'");
    assertThatThrownBy(() -> SchemaLoader.parse("# nothing\n", "e.yaml"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage(
            "e.yaml: empty document; a schema is a mapping with keys name, attributes, index, layout");
    expect(
        "attributes: [{name: a, type: int, min: 0, max: 1}]\n---\nname: b\n",
        2,
        1,
        "expected a single document");
    expect("? [a]\n: 1\n", 1, 3, "keys must be plain words, got a list in a schema");
  }

  @Test
  void yamlSyntaxErrorsAreLocated() {
    assertThat(error("name: q\nattributes: [\n  - a: b: c\n").reason())
        .isEqualTo(
            "YAML syntax error: expected the node content, but found '-'"
                + " (while parsing a flow node)");
    expect("name: q\nattributes: [\n  - a: b: c\n", 3, 3, "YAML syntax error");
    expect("name: \"unterminated\n", 2, 1, "YAML syntax error");
    expect("name: q\n\tattributes: []\n", 2, 1, "YAML syntax error");
  }

  @Test
  void hostileDocumentsAreRefusedQuickly() {
    StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 0; i < 10; i++) {
      bomb.append((char) ('b' + i)).append(": &").append((char) ('b' + i)).append(" [");
      bomb.append(("*" + (char) ('a' + i) + ", ").repeat(10)).append("]\n");
    }
    assertThatThrownBy(() -> SchemaLoader.parse(bomb.toString(), "bomb.yaml"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(
            "bomb.yaml: cannot read YAML: Number of aliases for non-scalar nodes exceeds the specified max=20");
    String deep = "[".repeat(1000) + "]".repeat(1000);
    assertThatThrownBy(() -> SchemaLoader.parse(deep, "deep.yaml"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("deep.yaml: cannot read YAML: Nesting Depth exceeded max 50");
    String big = "name: q\n" + "# padding\n".repeat(110_000);
    assertThatThrownBy(() -> SchemaLoader.parse(big, "big.yaml"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("big.yaml: larger than 1048576 characters; not a schema");
  }

  @Test
  void aFileIsMeasuredByTheBytesReadNotItsReportedSize() {
    // /dev/zero reports size 0 and never ends: refused after MAX_SIZE + 1 bytes, not read whole
    assertThatThrownBy(() -> SchemaLoader.load(java.nio.file.Path.of("/dev/zero")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessage("zero: larger than 1048576 bytes; not a schema");
  }

  @Test
  void tagsConstructNothing() {
    expect("!!javax.script.ScriptEngineManager [a]\n", 1, 1, "Global tag is not allowed");
    expect(attr("type: int\n    min: !!str 1\n    max: 2"), 5, 10, "min must be an integer");
  }

  @Test
  void errorsWithoutFileNameHaveNoPrefix() {
    assertThatThrownBy(() -> SchemaLoader.parse("name: q\n", null))
        .hasMessage(
            "line 1, column 1: missing key 'attributes' in a schema; a schema lists its attributes");
  }

  /** A schema with one attribute named a whose body (after the name) is {@code body}. */
  private static String attr(String body) {
    return "name: q\nattributes:\n  - name: a\n    " + body + "\n";
  }

  private static InvalidInputException error(String yaml) {
    try {
      SchemaLoader.parse(yaml, "quotes.yaml");
    } catch (InvalidInputException e) {
      return e;
    }
    throw new AssertionError("accepted:\n" + yaml);
  }

  private static void expect(String yaml, int line, int column, String reasonPart) {
    InvalidInputException e = error(yaml);
    assertThat(e.getMessage())
        .startsWith("quotes.yaml: line " + line + ", column " + column + ": ");
    assertThat(e.reason()).contains(reasonPart);
  }
}
