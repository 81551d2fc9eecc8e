package org.netpubsub.compiler.spec;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.netpubsub.content.schema.AttributeNames;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaLoader;
import org.netpubsub.content.schema.YamlMapping;
import org.netpubsub.content.schema.YamlSource;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads a message spec from YAML (docs/compiler.md): either a netpubsub schema (top-level key
 * {@code attributes}; every attribute becomes a range-matched query field, {@link
 * MessageSpec#fromSchema}) or a spec proper:
 *
 * <pre>
 * name: itch
 * fields:                 # BDD variable order
 *   - name: stock
 *     type: string        # string | int
 *     bytes: 8            # string width
 *     pad: " "            # string padding byte (default NUL)
 *     match: exact        # exact | range | lpm (default range)
 *   - name: price
 *     type: int
 *     bits: 32            # int width: values 0 .. 2^bits − 1 (filters: up to 2^63 − 1)
 * </pre>
 *
 * Errors are located ({@code itch.yaml: line 4, column 5: ...}).
 */
public final class SpecLoader {
  private static final List<String> TOP = List.of("name", "fields");
  private static final List<String> FIELD =
      List.of("name", "type", "bits", "bytes", "pad", "match");

  private SpecLoader() {}

  /** Parses a spec or schema document; {@code sourceName} names it in messages. */
  public static MessageSpec parse(String yaml, String sourceName) {
    YamlSource source =
        new YamlSource(sourceName, yaml.startsWith("\uFEFF") ? yaml.substring(1) : yaml);
    Node root = source.compose("a message spec", "a spec is a mapping with keys name, fields");
    YamlMapping top = YamlMapping.of(source, root, "the spec", "a mapping");
    if (top.has("attributes")) {
      return MessageSpec.fromSchema(SchemaLoader.parse(source.text(), sourceName));
    }
    top.allowOnly(TOP, k -> null);
    String name = top.string("name", top.require("name", " (the spec's name)"));
    Node list = top.require("fields", " (the query fields, in order)");
    if (!(list instanceof SequenceNode seq) || seq.getValue().isEmpty()) {
      throw source.error(list, "fields must be a non-empty list of fields");
    }
    Schema.Builder schema = Schema.builder(name);
    List<QueryField> fields = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Node n : seq.getValue()) {
      YamlMapping m = YamlMapping.of(source, n, "field " + (fields.size() + 1), "a mapping");
      m.allowOnly(FIELD, k -> null);
      Node nameNode = m.require("name", "");
      String field = m.string("name", nameNode);
      AttributeNames.problem(field)
          .ifPresent(
              p -> {
                throw source.error(nameNode, p);
              });
      if (!seen.add(field)) {
        throw source.error(nameNode, "field " + field + " is given twice");
      }
      m = m.named("field '" + field + "'");
      fields.add(field(source, m, field, fields.size(), schema));
    }
    return MessageSpec.of(name, schema.build(), fields);
  }

  private static QueryField field(
      YamlSource source, YamlMapping m, String name, int position, Schema.Builder schema) {
    Node typeNode = m.require("type", " (int or string)");
    String type = m.string("type", typeNode);
    MatchKind match = MatchKind.RANGE;
    if (m.has("match")) {
      Node node = m.get("match").orElseThrow();
      try {
        match = MatchKind.parse(m.string("match", node));
      } catch (IllegalArgumentException e) {
        throw source.error(node, e.getMessage());
      }
    }
    switch (type) {
      case "int" -> {
        refuse(source, m, "bytes", "an int field has bits, not bytes");
        refuse(source, m, "pad", "pad is for string fields");
        Node bitsNode = m.require("bits", " (1..64)");
        long bits = m.integer("bits", bitsNode);
        if (bits < 1 || bits > 64) {
          throw source.error(bitsNode, "bits must be 1..64, got " + bits);
        }
        // The filter language reads signed 64-bit constants: a 64-bit field's filters reach 2^63 −
        // 1.
        schema.intAttribute(name, 0, bits == 64 ? Long.MAX_VALUE : (1L << bits) - 1);
        return new QueryField(name, FieldKind.INT, (int) bits, match, (byte) 0, 0, position);
      }
      case "string" -> {
        refuse(source, m, "bits", "a string field has bytes, not bits");
        Node bytesNode = m.require("bytes", " (1..8)");
        long bytes = m.integer("bytes", bytesNode);
        if (bytes < 1 || bytes > 8) {
          throw source.error(bytesNode, "bytes must be 1..8, got " + bytes);
        }
        byte pad = 0;
        if (m.has("pad")) {
          Node padNode = m.get("pad").orElseThrow();
          String p = m.string("pad", padNode);
          if (p.length() != 1 || p.charAt(0) > 0x7f) {
            throw source.error(padNode, "pad must be one ASCII character, got '" + p + "'");
          }
          pad = (byte) p.charAt(0);
        }
        schema.stringAttribute(name, (int) bytes);
        return new QueryField(name, FieldKind.STRING, 8 * (int) bytes, match, pad, 0, position);
      }
      default -> throw source.error(typeNode, "type must be int or string, got '" + type + "'");
    }
  }

  private static void refuse(YamlSource source, YamlMapping m, String key, String why) {
    m.get(key)
        .ifPresent(
            n -> {
              throw source.error(n, why + " (" + m.where() + ")");
            });
  }
}
