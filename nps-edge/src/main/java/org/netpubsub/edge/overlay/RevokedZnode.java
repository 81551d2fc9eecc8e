package org.netpubsub.edge.overlay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Collection;
import java.util.Iterator;
import java.util.Set;
import java.util.TreeSet;
import org.netpubsub.edge.link.RevokedBound;

/**
 * The overlay's revoked edges as the revoked-edges znode ({@link ZnodePaths#REVOKED_EDGES}) holds
 * them (docs/security-revocation.md): JSON, strict, snake_case, the names sorted:
 *
 * <pre>{"revoked_edges":["mallory","rome"]}</pre>
 *
 * <p>At most {@link RevokedBound#MAX_EDGES} names, each an edge name ({@link
 * ZnodePaths#checkName}); anything else is refused whole, the error naming the field. Pure.
 */
public final class RevokedZnode {
  /** The field holding the names. */
  public static final String FIELD = "revoked_edges";

  /** Bytes a valid list can take (4 096 names of 64 characters, quoted), and a little more. */
  static final int MAX_BYTES = RevokedBound.MAX_EDGES * 70 + 64;

  private static final ObjectMapper JSON = new ObjectMapper();

  private RevokedZnode() {}

  /** The names {@code data} holds; {@link IllegalArgumentException} naming the field if bad. */
  public static Set<String> parse(byte[] data) {
    if (data.length > MAX_BYTES) {
      throw new IllegalArgumentException("over " + MAX_BYTES + " B");
    }
    JsonNode root;
    try {
      root = JSON.readTree(data);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON");
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    for (Iterator<String> f = root.fieldNames(); f.hasNext(); ) {
      String name = f.next();
      if (!name.equals(FIELD)) {
        throw new IllegalArgumentException("unknown field '" + clip(name) + "'");
      }
    }
    JsonNode list = root.get(FIELD);
    if (list == null || !list.isArray()) {
      throw new IllegalArgumentException("'" + FIELD + "' must be a list of edge names");
    }
    if (list.size() > RevokedBound.MAX_EDGES) {
      throw new IllegalArgumentException(
          "'" + FIELD + "' names " + list.size() + " edges, at most " + RevokedBound.MAX_EDGES);
    }
    Set<String> out = new TreeSet<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode n = list.get(i);
      if (!n.isTextual() || !valid(n.asText())) {
        throw new IllegalArgumentException("'" + FIELD + "[" + i + "]' is not an edge name");
      }
      out.add(n.asText());
    }
    return Set.copyOf(out);
  }

  /** The znode's bytes for {@code names}, sorted; refused as {@link #parse} would refuse them. */
  public static byte[] toJson(Collection<String> names) {
    Set<String> sorted = new TreeSet<>();
    for (String n : names) {
      sorted.add(ZnodePaths.checkName(n));
    }
    if (sorted.size() > RevokedBound.MAX_EDGES) {
      throw new IllegalArgumentException(
          "'"
              + FIELD
              + "' would name "
              + sorted.size()
              + " edges, at most "
              + RevokedBound.MAX_EDGES);
    }
    ObjectNode root = JSON.createObjectNode();
    ArrayNode list = root.putArray(FIELD);
    sorted.forEach(list::add);
    try {
      return JSON.writeValueAsBytes(root);
    } catch (IOException e) {
      throw new IllegalStateException(e); // writing a tree of strings cannot fail
    }
  }

  private static boolean valid(String name) {
    try {
      ZnodePaths.checkName(name);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** A field name from the znode, quoted in an error only if short and plain. */
  private static String clip(String s) {
    return s.matches("[A-Za-z0-9_]{1,32}") ? s : "?";
  }
}
