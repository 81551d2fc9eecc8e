package org.netpubsub.compiler.target.p4;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netpubsub.compiler.spec.MessageSpec;

/**
 * The names the emitted control and its entries share: the program refers to the application's
 * header as {@code hdr.<spec>} and its fields by name, with characters P4 identifiers lack (the
 * dots of {@code int.switch_id}) turned into {@code _}, and P4 keywords suffixed with {@code _}
 * ({@code int} → {@code int_}). Tables and actions are named as P4Info names them, qualified by the
 * control.
 */
public final class P4Names {
  /** The ingress control Camus generates. */
  public static final String CONTROL = "CamusIngress";

  /** The BDD state, in the application's metadata. */
  public static final String STATE = "meta.camus_state";

  public static final String SET_STATE = CONTROL + ".set_state";
  public static final String SET_MGID = CONTROL + ".set_mgid";
  public static final String SET_MGID_CONDITIONAL = CONTROL + ".set_mgid_conditional";
  public static final String DROP = CONTROL + ".camus_drop";
  public static final String NO_ACTION = "NoAction";

  /** The leaf table (Camus Figure 6's "Leaf"). */
  public static final String LEAF = "leaf";

  private static final Set<String> KEYWORDS =
      Set.of(
          "abstract",
          "action",
          "actions",
          "apply",
          "bit",
          "bool",
          "const",
          "control",
          "default",
          "else",
          "entries",
          "enum",
          "error",
          "exit",
          "extern",
          "false",
          "for",
          "header",
          "header_union",
          "if",
          "in",
          "inout",
          "int",
          "key",
          "list",
          "match_kind",
          "out",
          "package",
          "parser",
          "priority",
          "return",
          "select",
          "state",
          "string",
          "struct",
          "switch",
          "table",
          "this",
          "transition",
          "true",
          "tuple",
          "type",
          "typedef",
          "value_set",
          "varbit",
          "verify",
          "void");

  private final String header;
  private final List<String> fields;

  private P4Names(String header, List<String> fields) {
    this.header = header;
    this.fields = fields;
  }

  /** The names for {@code spec}; IllegalArgumentException when two fields would get one name. */
  public static P4Names of(MessageSpec spec) {
    List<String> fields = spec.fields().stream().map(q -> identifier(q.name())).toList();
    Map<String, String> seen = new HashMap<>();
    for (int f = 0; f < fields.size(); f++) {
      String before = seen.put(fields.get(f), spec.field(f).name());
      if (before != null) {
        throw new IllegalArgumentException(
            "fields "
                + before
                + " and "
                + spec.field(f).name()
                + " are both "
                + fields.get(f)
                + " in P4");
      }
    }
    return new P4Names(identifier(spec.name()), fields);
  }

  /** {@code name} as a P4 identifier. */
  public static String identifier(String name) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      boolean ok = c < 128 && (Character.isLetterOrDigit(c) || c == '_');
      b.append(ok ? c : '_');
    }
    if (b.isEmpty() || Character.isDigit(b.charAt(0))) {
      b.insert(0, '_');
    }
    String s = b.toString();
    return KEYWORDS.contains(s) ? s + "_" : s;
  }

  /** The header instance: {@code hdr.<spec>}. */
  public String header() {
    return "hdr." + header;
  }

  /** The key of field {@code f}: {@code hdr.<spec>.<field>}. */
  public String field(int f) {
    return header() + "." + fields.get(f);
  }

  /** The P4 field name alone. */
  public String fieldName(int f) {
    return fields.get(f);
  }

  /** Field {@code f}'s table, unqualified: {@code field_<field>}. */
  public String table(int f) {
    return "field_" + fields.get(f);
  }

  /** A table's P4Info name, {@code CamusIngress.<table>}. */
  public static String qualified(String table) {
    return CONTROL + "." + table;
  }

  /** Where an attribute (an aggregate's argument, query field or not) is read from. */
  public String attribute(String name) {
    return header() + "." + identifier(name);
  }
}
