package org.netpubsub.content.schema;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads a schema from YAML (format in docs/content-model.md). Unknown keys, wrong types and {@code
 * min > max} are reported as {@link org.netpubsub.content.InvalidInputException} naming the key and
 * its line.
 *
 * <p>Only SnakeYAML's node API is used (no object construction, so no tags can instantiate
 * classes), with limits against hostile files: 1 MiB of text, 50 levels of nesting, 20 aliases to
 * collections.
 */
public final class SchemaLoader {
  /** The largest schema file read, in bytes (and the code-point limit of the YAML reader). */
  public static final int MAX_SIZE = YamlSource.MAX_SIZE;

  private SchemaLoader() {}

  /**
   * Reads {@code file} (UTF-8); its file name prefixes error messages and names the schema by
   * default.
   */
  public static Schema load(Path file) throws IOException {
    String sourceName =
        file.getFileName() == null ? file.toString() : file.getFileName().toString();
    YamlSource source = new YamlSource(sourceName, "");
    byte[] bytes;
    // counted as read, not by Files.size: a device or a growing file reports a size it does not
    // have
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(MAX_SIZE + 1);
    }
    if (bytes.length > MAX_SIZE) {
      throw source.error((Node) null, "larger than " + MAX_SIZE + " bytes; not a schema");
    }
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw source.error((Node) null, "not valid UTF-8 text");
    }
    return parse(text, sourceName);
  }

  /** Parses YAML text; {@code sourceName} (a file name) appears in error messages. */
  public static Schema parse(String yaml, String sourceName) {
    Objects.requireNonNull(yaml, "yaml");
    if (yaml.startsWith("\uFEFF")) {
      yaml = yaml.substring(1);
    }
    YamlSource source = new YamlSource(sourceName, yaml);
    Node root =
        source.compose(
            "a schema", "a schema is a mapping with keys name, attributes, index, layout");
    return new SchemaYamlReader(source, SchemaNames.fromSourceName(sourceName)).read(root);
  }
}
