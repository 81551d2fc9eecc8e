package org.netpubsub.content.schema;

import java.math.BigInteger;
import java.util.regex.Pattern;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.SourcePosition;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The YAML text being read and its name: reads scalars and turns node positions into located
 * errors.
 */
record YamlSource(String name, String text) {
  private static final Pattern DECIMAL = Pattern.compile("[-+]?[0-9]+");

  InvalidInputException error(Node at, String reason) {
    return error(at == null ? null : at.getStartMark(), reason);
  }

  InvalidInputException error(Mark at, String reason) {
    return new SchemaInputException(name, reason, position(at), text);
  }

  /** SnakeYAML's syntax errors, located at the problem (its marks are 0-based). */
  InvalidInputException syntaxError(MarkedYAMLException e) {
    StringBuilder reason = new StringBuilder("YAML syntax error: ").append(e.getProblem());
    if (e.getContext() != null) {
      reason.append(" (").append(e.getContext());
      Mark c = e.getContextMark();
      Mark p = e.getProblemMark();
      if (c != null
          && (p == null || c.getLine() != p.getLine() || c.getColumn() != p.getColumn())) {
        reason.append(" at ").append(position(e.getContextMark()));
      }
      reason.append(')');
    }
    return error(e.getProblemMark(), reason.toString());
  }

  /** A scalar's text: any scalar, so {@code name: 123} reads as "123". */
  String string(Node value, String key, String where) {
    if (!(value instanceof ScalarNode s)) {
      throw error(value, key + " must be a string, got " + describe(value) + " (" + where + ")");
    }
    return s.getValue();
  }

  /**
   * A plain decimal integer within 64 bits. Quoted numbers are refused (they are strings in YAML);
   * so are YAML 1.1's hex, octal-looking underscores and sexagesimal forms, which surprise people.
   */
  long integer(Node value, String key, String where) {
    if (!(value instanceof ScalarNode s)
        || !s.isPlain()
        || !s.getTag().equals(Tag.INT)
        || !DECIMAL.matcher(s.getValue()).matches()) {
      throw error(value, key + " must be an integer, got " + describe(value) + " (" + where + ")");
    }
    BigInteger v = new BigInteger(s.getValue());
    if (v.bitLength() > 63) {
      throw error(
          value,
          key
              + " "
              + s.getValue()
              + " is outside the 64-bit integer range ["
              + Long.MIN_VALUE
              + ", "
              + Long.MAX_VALUE
              + "] ("
              + where
              + ")");
    }
    return v.longValue();
  }

  private static SourcePosition position(Mark mark) {
    return mark == null ? null : new SourcePosition(mark.getLine() + 1, mark.getColumn() + 1);
  }

  /**
   * How a node reads in a message: {@code 'abc'}, {@code the quoted string '5'}, {@code a list}.
   */
  static String describe(Node node) {
    return switch (node) {
      case ScalarNode s when s.getTag().equals(Tag.NULL) && s.getValue().isEmpty() -> "nothing";
      case ScalarNode s when !s.isPlain() -> "the quoted string '" + s.getValue() + "'";
      case ScalarNode s -> "'" + s.getValue() + "'";
      case SequenceNode q -> "a list";
      case MappingNode m -> "a mapping";
      default -> "a " + node.getNodeId();
    };
  }
}
