package org.netpubsub.content.schema;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * A YAML mapping read strictly: scalar keys, no duplicates, only the keys allowed; values read as
 * strings or 64-bit integers, every problem located at the offending node. Shared by every strict
 * YAML format of the project (schemas, compiler message specs).
 */
public final class YamlMapping {
  private final YamlSource source;
  private final MappingNode node;
  private final String where;
  private final Map<String, NodeTuple> entries = new LinkedHashMap<>();

  /**
   * @param where how messages name this mapping, e.g. {@code attribute 'price'}
   */
  private YamlMapping(YamlSource source, MappingNode node, String where) {
    this.source = source;
    this.node = node;
    this.where = where;
    for (NodeTuple t : node.getValue()) {
      if (!(t.getKeyNode() instanceof ScalarNode key)) {
        throw source.error(
            t.getKeyNode(),
            "keys must be plain words, got "
                + YamlSource.describe(t.getKeyNode())
                + " in "
                + where);
      }
      NodeTuple first = entries.putIfAbsent(key.getValue(), t);
      if (first != null) {
        throw source.error(
            key,
            "duplicate key '"
                + key.getValue()
                + "' in "
                + where
                + "; first given at line "
                + (first.getKeyNode().getStartMark().getLine() + 1));
      }
    }
  }

  /** Reads {@code node} as a mapping, or fails with {@code expected} (what it should have been). */
  public static YamlMapping of(YamlSource source, Node node, String where, String expected) {
    if (!(node instanceof MappingNode m)) {
      throw source.error(
          node, where + " must be " + expected + ", got " + YamlSource.describe(node));
    }
    return new YamlMapping(source, m, where);
  }

  public String where() {
    return where;
  }

  /** Fails on the first key not in {@code allowed}; {@code hint} may explain a near miss. */
  public void allowOnly(List<String> allowed, Function<String, String> hint) {
    for (NodeTuple t : entries.values()) {
      String key = ((ScalarNode) t.getKeyNode()).getValue();
      if (!allowed.contains(key)) {
        String why = hint.apply(key);
        throw source.error(
            t.getKeyNode(),
            why != null
                ? why
                : "unknown key '"
                    + key
                    + "' in "
                    + where
                    + "; expected one of "
                    + String.join(", ", allowed));
      }
    }
  }

  public boolean has(String key) {
    return entries.containsKey(key);
  }

  public Optional<Node> get(String key) {
    NodeTuple t = entries.get(key);
    return t == null ? Optional.empty() : Optional.of(t.getValueNode());
  }

  /** The value of {@code key}; {@code why} says what needs it when it is missing. */
  public Node require(String key, String why) {
    return get(key)
        .orElseThrow(() -> source.error(node, "missing key '" + key + "' in " + where + why));
  }

  /** The value of {@code key} as a string (see {@link YamlSource#string}). */
  public String string(String key, Node value) {
    return source.string(value, key, where);
  }

  /** The value of {@code key} as an integer (see {@link YamlSource#integer}). */
  public long integer(String key, Node value) {
    return source.integer(value, key, where);
  }

  /** The same mapping, named differently in messages (once its name is known). */
  public YamlMapping named(String newWhere) {
    return new YamlMapping(source, node, newWhere);
  }
}
