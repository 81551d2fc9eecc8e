package org.netpubsub.content.schema;

import java.io.StringReader;
import java.math.BigInteger;
import java.util.regex.Pattern;
import org.netpubsub.content.InvalidInputException;
import org.netpubsub.content.SourcePosition;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * The YAML text being read and its name: reads scalars and turns node positions into located
 * errors. Schemas and the compiler's message specs are read with it, through SnakeYAML's node API
 * only (no object construction) and with limits against hostile files ({@link #compose}).
 */
public record YamlSource(String name, String text) {
  /** The largest YAML text read, in characters (and the code-point limit of the YAML reader). */
  public static final int MAX_SIZE = 1 << 20;

  private static final Pattern DECIMAL = Pattern.compile("[-+]?[0-9]+");

  /**
   * Parses {@code text} into a node tree: 1 MiB at most, 50 levels of nesting, 20 aliases to
   * collections, no duplicate keys. {@code what} names the expected document in messages ("a
   * schema"); an empty document is an error that says {@code shape}.
   */
  public Node compose(String what, String shape) {
    if (text.length() > MAX_SIZE) {
      // Checked here too: SnakeYAML's code-point limit does not count comments.
      throw error((Node) null, "larger than " + MAX_SIZE + " characters; not " + what);
    }
    Node root;
    try {
      root = new Yaml(options()).compose(new StringReader(text));
    } catch (MarkedYAMLException e) {
      throw syntaxError(e);
    } catch (YAMLException e) {
      // Limits (aliases, nesting, size) and reader errors (non-printable characters) carry no mark.
      throw error((Node) null, "cannot read YAML: " + e.getMessage());
    }
    if (root == null) {
      throw error((Node) null, "empty document; " + shape);
    }
    return root;
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

  public InvalidInputException error(Node at, String reason) {
    return error(at == null ? null : at.getStartMark(), reason);
  }

  public InvalidInputException error(Mark at, String reason) {
    return new SchemaInputException(name, reason, position(at), text);
  }

  /** SnakeYAML's syntax errors, located at the problem (its marks are 0-based). */
  public InvalidInputException syntaxError(MarkedYAMLException e) {
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
  public String string(Node value, String key, String where) {
    if (!(value instanceof ScalarNode s)) {
      throw error(value, key + " must be a string, got " + describe(value) + " (" + where + ")");
    }
    return s.getValue();
  }

  /**
   * A plain decimal integer within 64 bits. Quoted numbers are refused (they are strings in YAML);
   * so are YAML 1.1's hex, octal-looking underscores and sexagesimal forms, which surprise people.
   */
  public long integer(Node value, String key, String where) {
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
  public static String describe(Node node) {
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
