package org.netpubsub.content.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads a schema's {@code layout:} mapping (docs/content-model.md, "Index layouts"): {@code bits},
 * a list of segments, and {@code codings}, a mapping from string attribute to its coding.
 */
final class LayoutYamlReader {
  private static final List<String> LAYOUT_KEYS = List.of("bits", "codings");
  private static final List<String> CODING_KEYS =
      List.of("kind", "values", "common_bits", "level_bits", "level_order", "level_values", "cuts");

  private final YamlSource source;

  LayoutYamlReader(YamlSource source) {
    this.source = source;
  }

  IndexLayout read(Node node) {
    YamlMapping m = YamlMapping.of(source, node, "layout", "a mapping with keys bits, codings");
    m.allowOnly(LAYOUT_KEYS, key -> null);
    List<String> bits = List.of();
    if (m.has("bits")) {
      Node b = m.get("bits").orElseThrow();
      try {
        bits = IndexLayout.expand(strings(b, "bits"));
      } catch (IllegalArgumentException e) {
        throw source.error(b, e.getMessage());
      }
    }
    Map<String, StringCoding> codings = new LinkedHashMap<>();
    Map<String, IntCuts> cuts = new LinkedHashMap<>();
    if (m.has("codings")) {
      Node c = m.get("codings").orElseThrow();
      if (!(c instanceof MappingNode map)) {
        throw source.error(c, "layout.codings must map attribute names to codings");
      }
      for (NodeTuple t : map.getValue()) {
        String name = source.string(t.getKeyNode(), "codings", "layout");
        if (codings.containsKey(name) || cuts.containsKey(name)) {
          throw source.error(t.getKeyNode(), "layout.codings names '" + name + "' twice");
        }
        String where = "layout.codings." + name;
        YamlMapping m2 =
            YamlMapping.of(source, t.getValueNode(), where, "a mapping with keys kind, ...");
        if (m2.has("kind") && m2.string("kind", m2.get("kind").orElseThrow()).equals("cuts")) {
          cuts.put(name, cuts(m2, where));
        } else {
          codings.put(name, coding(t.getValueNode(), where));
        }
      }
    }
    return new IndexLayout(bits, codings, cuts);
  }

  private IntCuts cuts(YamlMapping m, String where) {
    m.allowOnly(List.of("kind", "cuts"), key -> null);
    Node list = m.require("cuts", "; int cuts list their cut points");
    List<Long> out = new ArrayList<>();
    if (!(list instanceof SequenceNode seq)) {
      throw source.error(list, where + ".cuts must be a list, got " + YamlSource.describe(list));
    }
    for (Node item : seq.getValue()) {
      out.add(source.integer(item, "cuts", where));
    }
    try {
      return new IntCuts(out);
    } catch (IllegalArgumentException e) {
      throw source.error(list, where + ": " + e.getMessage());
    }
  }

  private StringCoding coding(Node node, String where) {
    YamlMapping m = YamlMapping.of(source, node, where, "a mapping with keys kind, ...");
    m.allowOnly(CODING_KEYS, key -> null);
    Node kindNode = m.require("kind", "; kind is ordered, hash, dictionary, topic or cuts");
    String kind = m.string("kind", kindNode);
    try {
      return switch (kind) {
        case "ordered" ->
            new StringCoding.Ordered(
                m.has("common_bits")
                    ? m.string("common_bits", m.get("common_bits").orElseThrow())
                    : "");
        case "hash" -> new StringCoding.Hash();
        case "dictionary" ->
            new StringCoding.Dictionary(
                strings(m.require("values", "; a dictionary lists its values"), where + ".values"));
        case "topic" -> {
          Node l = m.require("level_bits", "; a topic coding gives the bits of each level");
          List<Integer> levels = numbers(l, where + ".level_bits", "a number of bits");
          Node o = m.get("level_order").orElse(null);
          Node v = m.get("level_values").orElse(null);
          yield new StringCoding.Topic(
              levels,
              o == null
                  ? StringCoding.Topic.identity(levels.size())
                  : numbers(o, where + ".level_order", "a level"),
              v == null ? List.of() : lists(v, where + ".level_values"));
        }
        default ->
            throw source.error(
                kindNode, where + ".kind must be ordered, hash, dictionary or topic, not " + kind);
      };
    } catch (IllegalArgumentException e) {
      throw source.error(node, where + ": " + e.getMessage());
    }
  }

  private List<String> strings(Node node, String where) {
    if (!(node instanceof SequenceNode list)) {
      throw source.error(node, where + " must be a list, got " + YamlSource.describe(node));
    }
    List<String> out = new ArrayList<>();
    for (Node item : list.getValue()) {
      if (!(item instanceof ScalarNode)) {
        throw source.error(item, where + " lists plain values, got " + YamlSource.describe(item));
      }
      out.add(((ScalarNode) item).getValue());
    }
    return out;
  }

  private List<List<String>> lists(Node node, String where) {
    if (!(node instanceof SequenceNode list)) {
      throw source.error(
          node, where + " must be a list of lists, got " + YamlSource.describe(node));
    }
    List<List<String>> out = new ArrayList<>();
    for (Node item : list.getValue()) {
      out.add(strings(item, where + "[" + out.size() + "]"));
    }
    return out;
  }

  private List<Integer> numbers(Node node, String field, String what) {
    List<Integer> out = new ArrayList<>();
    for (String s : strings(node, field)) {
      try {
        out.add(Integer.parseInt(s));
      } catch (NumberFormatException e) {
        throw source.error(node, field + ": '" + s + "' is not " + what);
      }
    }
    return out;
  }
}
