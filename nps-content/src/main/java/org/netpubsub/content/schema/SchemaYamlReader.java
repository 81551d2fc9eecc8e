package org.netpubsub.content.schema;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/** Turns a composed YAML document into a {@link Schema}, checking every rule of the format. */
final class SchemaYamlReader {
  /** The largest max_length: a string must fit one datagram with its 16-bit-ish length. */
  static final int MAX_STRING_LENGTH = 65535;

  private static final List<String> TOP_KEYS = List.of("name", "attributes", "index", "layout");
  private static final List<String> INT_KEYS = List.of("name", "type", "min", "max");
  private static final List<String> STRING_KEYS = List.of("name", "type", "max_length", "values");
  private static final List<String> TOPIC_KEYS =
      List.of("name", "type", "max_length", "levels", "values");

  /** The levels of a topic attribute that does not declare them. */
  static final int DEFAULT_LEVELS = 8;

  private static final List<String> ANY_KEYS =
      List.of("name", "type", "min", "max", "max_length", "values");
  private static final String TOP_SHAPE = "a mapping with keys name, attributes, index, layout";

  private final YamlSource source;
  private final String defaultName;

  /** Attribute name → the node that named it first (for duplicates and the index). */
  private final Map<String, Node> names = new LinkedHashMap<>();

  /** String attribute name → its declared {@code values}, a dictionary coding. */
  private final Map<String, StringCoding.Dictionary> declared = new LinkedHashMap<>();

  SchemaYamlReader(YamlSource source, String defaultName) {
    this.source = source;
    this.defaultName = defaultName;
  }

  Schema read(Node root) {
    YamlMapping top = YamlMapping.of(source, root, "a schema", TOP_SHAPE);
    top.allowOnly(TOP_KEYS, key -> null);
    String name = defaultName;
    if (top.has("name")) {
      Node n = top.get("name").orElseThrow();
      name = top.string("name", n);
      String problem = SchemaNames.problem(name).orElse(null);
      if (problem != null) {
        throw source.error(n, problem);
      }
    }
    Node attrs = top.require("attributes", "; a schema lists its attributes");
    if (!(attrs instanceof SequenceNode list)) {
      throw source.error(
          attrs, "attributes must be a list of attributes, got " + YamlSource.describe(attrs));
    }
    if (list.getValue().isEmpty()) {
      throw source.error(attrs, "attributes must list at least one attribute");
    }
    Schema.Builder builder = Schema.builder(name);
    for (int i = 0; i < list.getValue().size(); i++) {
      readAttribute(builder, list.getValue().get(i), i + 1);
    }
    List<String> index = top.get("index").map(this::readIndex).orElse(List.copyOf(names.keySet()));
    top.get("index").ifPresent(n -> builder.index(index));
    Node layout = top.get("layout").orElse(null);
    IndexLayout read =
        layout == null ? IndexLayout.ROUND_ROBIN : new LayoutYamlReader(source).read(layout);
    builder.layout(withDeclaredValues(read, index));
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      throw source.error(layout, e.getMessage()); // the layout does not fit the index
    }
  }

  private void readAttribute(Schema.Builder builder, Node item, int number) {
    YamlMapping m =
        YamlMapping.of(source, item, "attribute #" + number, "a mapping with keys name, type, ...");
    Node nameNode = m.require("name", "");
    String name = m.string("name", nameNode);
    String problem = AttributeNames.problem(name).orElse(null);
    if (problem != null) {
      throw source.error(nameNode, problem);
    }
    Node first = names.putIfAbsent(name, nameNode);
    if (first != null) {
      throw source.error(
          nameNode,
          "duplicate attribute name '"
              + name
              + "'; first defined at line "
              + (first.getStartMark().getLine() + 1));
    }
    m = m.named("attribute '" + name + "'");
    Node typeNode = m.require("type", "; the type is int, string or topic");
    String type = m.string("type", typeNode);
    switch (type) {
      case "int" -> readInt(builder, m, name);
      case "string" -> readString(builder, m, name, false);
      case "topic" -> readString(builder, m, name, true);
      default -> {
        m.allowOnly(ANY_KEYS, key -> null);
        throw source.error(
            typeNode,
            "type must be int, string or topic, got "
                + YamlSource.describe(typeNode)
                + " ("
                + m.where()
                + ")");
      }
    }
  }

  private void readInt(Schema.Builder builder, YamlMapping m, String name) {
    m.allowOnly(
        INT_KEYS,
        key ->
            key.equals("max_length")
                ? "max_length applies to string attributes; '"
                    + name
                    + "' is an int attribute"
                    + " (give min and max)"
                : null);
    Node minNode = m.require("min", "; an int attribute needs min and max");
    Node maxNode = m.require("max", "; an int attribute needs min and max");
    long min = m.integer("min", minNode);
    long max = m.integer("max", maxNode);
    if (min > max) {
      throw source.error(
          minNode, "min " + min + " is greater than max " + max + " (" + m.where() + ")");
    }
    builder.intAttribute(name, min, max);
  }

  private void readString(Schema.Builder builder, YamlMapping m, String name, boolean topic) {
    m.allowOnly(
        topic ? TOPIC_KEYS : STRING_KEYS,
        key ->
            key.equals("min") || key.equals("max")
                ? key
                    + " applies to int attributes; '"
                    + name
                    + "' is a string attribute"
                    + " (give max_length, in UTF-8 bytes)"
                : null);
    Node lengthNode = m.require("max_length", "; a string attribute needs max_length");
    long maxLength = m.integer("max_length", lengthNode);
    if (maxLength < 0 || maxLength > MAX_STRING_LENGTH) {
      throw source.error(
          lengthNode,
          "max_length "
              + maxLength
              + " is outside [0, "
              + MAX_STRING_LENGTH
              + "] ("
              + m.where()
              + ")");
    }
    if (topic && maxLength < 1) {
      throw source.error(
          lengthNode, "max_length 0 holds no topic; a topic needs 1 or more (" + m.where() + ")");
    }
    int levels = topic ? readLevels(m) : 0;
    if (topic) {
      builder.topicAttribute(name, (int) maxLength, levels);
    } else {
      builder.stringAttribute(name, (int) maxLength);
    }
    m.get("values")
        .ifPresent(
            v -> declared.put(name, readValues(v, name, (int) maxLength, levels, m.where())));
  }

  /** {@code levels: n} of a topic attribute, 1..16, default {@value #DEFAULT_LEVELS}. */
  private int readLevels(YamlMapping m) {
    Node node = m.get("levels").orElse(null);
    if (node == null) {
      return DEFAULT_LEVELS;
    }
    long levels = m.integer("levels", node);
    if (levels < 1 || levels > StringAttribute.MAX_LEVELS) {
      throw source.error(
          node,
          "levels "
              + levels
              + " is outside [1, "
              + StringAttribute.MAX_LEVELS
              + "] ("
              + m.where()
              + ")");
    }
    return (int) levels;
  }

  /**
   * The layout with a dictionary coding for every index dimension that declares {@code values} and
   * has no coding of the layout's own (an explicit coding wins).
   */
  private IndexLayout withDeclaredValues(IndexLayout layout, List<String> index) {
    Map<String, StringCoding> codings = new LinkedHashMap<>(layout.codings());
    declared.forEach(
        (name, dictionary) -> {
          if (index.contains(name)) {
            codings.putIfAbsent(name, dictionary);
          }
        });
    return codings.equals(layout.codings())
        ? layout
        : new IndexLayout(layout.bits(), codings, layout.cuts());
  }

  /** {@code values: [NYSE, NASDAQ, ...]}: distinct strings that fit max_length, any order. */
  private StringCoding.Dictionary readValues(
      Node node, String name, int maxLength, int levels, String where) {
    String field = "attribute '" + name + "'.values";
    if (!(node instanceof SequenceNode list) || list.getValue().isEmpty()) {
      throw source.error(
          node, field + " must be a non-empty list of strings, got " + YamlSource.describe(node));
    }
    Set<String> seen = new HashSet<>();
    for (Node item : list.getValue()) {
      if (!(item instanceof ScalarNode scalar) || scalar.getTag().equals(Tag.NULL)) {
        throw source.error(
            item, field + ": each value must be a string, got " + YamlSource.describe(item));
      }
      String v = scalar.getValue();
      if (!StandardCharsets.UTF_8.newEncoder().canEncode(v)) {
        throw source.error(item, field + ": '" + v + "' is not valid UTF-8 text");
      }
      if (v.getBytes(StandardCharsets.UTF_8).length > maxLength) {
        throw source.error(
            item,
            field + ": '" + v + "' is longer than max_length " + maxLength + " (" + where + ")");
      }
      String topic = levels == 0 ? null : Topics.nameProblem(v, levels);
      if (topic != null) {
        throw source.error(item, field + ": " + topic);
      }
      if (!seen.add(v)) {
        throw source.error(item, field + ": '" + v + "' is listed twice");
      }
    }
    try {
      return StringCoding.Dictionary.of(seen);
    } catch (IllegalArgumentException e) {
      throw source.error(node, field + ": " + e.getMessage());
    }
  }

  private List<String> readIndex(Node index) {
    if (!(index instanceof SequenceNode list)) {
      throw source.error(
          index,
          "index must be a list of attribute names, e.g. [price, volume], got "
              + YamlSource.describe(index));
    }
    List<String> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Node item : list.getValue()) {
      String name = source.string(item, "index entry", "index");
      if (!names.containsKey(name)) {
        throw source.error(
            item,
            "index names unknown attribute '"
                + name
                + "'; the attributes are "
                + String.join(", ", names.keySet()));
      }
      if (!seen.add(name)) {
        throw source.error(item, "index names '" + name + "' twice");
      }
      out.add(name);
    }
    return out;
  }
}
