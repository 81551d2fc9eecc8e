package org.netpubsub.content.schema;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
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
  public static final int MAX_SIZE = 1 << 20;

  private SchemaLoader() {}

  /**
   * Reads {@code file} (UTF-8); its file name prefixes error messages and names the schema by
   * default.
   */
  public static Schema load(Path file) throws IOException {
    String sourceName =
        file.getFileName() == null ? file.toString() : file.getFileName().toString();
    YamlSource source = new YamlSource(sourceName, "");
    if (Files.size(file) > MAX_SIZE) {
      throw source.error((Node) null, "larger than " + MAX_SIZE + " bytes; not a schema");
    }
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
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
    if (yaml.length() > MAX_SIZE) {
      // Checked here too: SnakeYAML's code-point limit does not count comments.
      throw source.error((Node) null, "larger than " + MAX_SIZE + " characters; not a schema");
    }
    Node root;
    try {
      root = new Yaml(options()).compose(new StringReader(yaml));
    } catch (MarkedYAMLException e) {
      throw source.syntaxError(e);
    } catch (YAMLException e) {
      // Limits (aliases, nesting, size) and reader errors (non-printable characters) carry no mark.
      throw source.error((Node) null, "cannot read YAML: " + e.getMessage());
    }
    if (root == null) {
      throw source.error(
          (Node) null, "empty document; a schema is a mapping with keys name, attributes, index");
    }
    return new SchemaYamlReader(source, SchemaNames.fromSourceName(sourceName)).read(root);
  }

  private static LoaderOptions options() {
    LoaderOptions o = new LoaderOptions();
    o.setCodePointLimit(MAX_SIZE);
    o.setNestingDepthLimit(50);
    o.setMaxAliasesForCollections(20);
    o.setAllowRecursiveKeys(false);
    o.setAllowDuplicateKeys(false);
    o.setMergeOnCompose(false);
    return o;
  }
}
