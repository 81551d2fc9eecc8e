package org.netpubsub.compiler.target.p4;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.compiler.aggregate.Condition;
import org.netpubsub.compiler.aggregate.ConditionalAction;

/**
 * The runtime files, P4Runtime-style JSON both ways: {@code entries.json} ({@code table_entries},
 * each with its table, match fields by P4 name — {@code exact {value}}, {@code ternary {value,
 * mask}}, {@code range {low, high}}, {@code lpm {value, prefix_len}}, a don't-care field left out —
 * the priority where the table needs one, and the action with its parameters) and {@code
 * groups.json} ({@code multicast_group_entries}). Values are unsigned decimal strings: they can
 * exceed 2^63.
 */
public final class P4RuntimeJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private P4RuntimeJson() {}

  /** {@code entries.json} of a program. */
  public static String entries(P4Program p) {
    ObjectNode root = MAPPER.createObjectNode();
    root.put("program", P4Target.PROGRAM);
    root.put("control", P4Names.CONTROL);
    root.put("spec", p.spec().name());
    root.put("state_bits", p.stateBits());
    ArrayNode entries = root.putArray("table_entries");
    for (P4Table t : p.tables()) {
      for (P4TableEntry e : t.entries()) {
        entries.add(entry(e));
      }
    }
    if (!p.conditionalActions().isEmpty()) {
      conditional(p, root);
    }
    return pretty(root);
  }

  /** {@code groups.json} of a program. */
  public static String groups(P4Program p) {
    ObjectNode root = MAPPER.createObjectNode();
    ArrayNode groups = root.putArray("multicast_group_entries");
    for (P4Group g : p.groups()) {
      ObjectNode o = groups.addObject();
      o.put("multicast_group_id", g.id());
      ArrayNode replicas = o.putArray("replicas");
      for (int port : g.ports()) {
        replicas.addObject().put("egress_port", port).put("instance", 1);
      }
    }
    return pretty(root);
  }

  static ObjectNode entry(P4TableEntry e) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("table", e.table());
    ObjectNode match = o.putObject("match");
    e.match().forEach((field, m) -> match.set(field, keyMatch(m)));
    if (e.priority() > 0) {
      o.put("priority", e.priority());
    }
    ObjectNode action = o.putObject("action");
    action.put("name", e.action());
    ObjectNode params = action.putObject("params");
    e.params().forEach((k, v) -> params.put(k, Long.toUnsignedString(v)));
    return o;
  }

  private static ObjectNode keyMatch(KeyMatch m) {
    ObjectNode o = MAPPER.createObjectNode();
    ObjectNode k = o.putObject(m.kind().label());
    switch (m) {
      case KeyMatch.Exact x -> k.put("value", Long.toUnsignedString(x.value()));
      case KeyMatch.Ternary x ->
          k.put("value", Long.toUnsignedString(x.value()))
              .put("mask", Long.toUnsignedString(x.mask()));
      case KeyMatch.Range x ->
          k.put("low", Long.toUnsignedString(x.low())).put("high", Long.toUnsignedString(x.high()));
      case KeyMatch.Lpm x ->
          k.put("value", Long.toUnsignedString(x.value())).put("prefix_len", x.length());
    }
    return o;
  }

  /**
   * What P4Runtime has no words for: the conditional actions (their port, and per aggregate atom
   * the slot and the comparison) and the groups that hold them, for the last hop's aggregate stage.
   */
  private static void conditional(P4Program p, ObjectNode root) {
    ObjectNode c = root.putObject("aggregates");
    c.put("slots", p.conditionalActions().slotBound());
    ArrayNode actions = c.putArray("conditional_actions");
    for (ConditionalAction a : p.conditionalActions().all()) {
      ObjectNode o = actions.addObject();
      o.put("id", a.id());
      o.put("rule", a.rule());
      o.put("port", a.port());
      ArrayNode conditions = o.putArray("conditions");
      for (Condition x : a.conditions()) {
        ObjectNode k = conditions.addObject();
        k.put("slot", x.slot());
        k.put("function", x.atom().function().name().toLowerCase(java.util.Locale.ROOT));
        if (x.atom().argument() != null) {
          k.put("argument", x.atom().argument().name());
          k.put("field", p.names().attribute(x.atom().argument().name()));
        }
        k.put("op", x.atom().op().symbol());
        k.put("threshold", x.atom().threshold().toPlainString());
        k.put("window_ns", Long.toString(x.windowNanos()));
      }
    }
    ArrayNode groups = c.putArray("groups");
    p.conditionalGroups()
        .forEach(
            (g, ids) -> {
              ObjectNode o = groups.addObject();
              o.put("multicast_group_id", g);
              ArrayNode a = o.putArray("actions");
              for (int id : ids) {
                a.add(id);
              }
            });
  }

  /**
   * The document with one table entry, group or conditional action per line: readable and diffable,
   * and a fraction of a fully indented file (millions of replicas on big rule sets).
   */
  private static String pretty(JsonNode n) {
    StringBuilder b = new StringBuilder();
    write(b, n, 0);
    return b.append('\n').toString();
  }

  private static void write(StringBuilder b, JsonNode n, int depth) {
    boolean expand =
        n.isContainerNode()
            && !n.isEmpty()
            && (depth < 2 || (depth == 2 && n.isArray() && n.get(0).isContainerNode()));
    if (!expand) {
      try {
        b.append(MAPPER.writeValueAsString(n));
      } catch (JsonProcessingException e) {
        throw new IllegalStateException(e);
      }
      return;
    }
    String inner = "  ".repeat(depth + 1);
    b.append(n.isArray() ? "[\n" : "{\n");
    if (n.isArray()) {
      for (int i = 0; i < n.size(); i++) {
        b.append(inner);
        write(b, n.get(i), depth + 1);
        b.append(i + 1 < n.size() ? ",\n" : "\n");
      }
    } else {
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        b.append(inner);
        try {
          b.append(MAPPER.writeValueAsString(f.getKey())).append(": ");
        } catch (JsonProcessingException e) {
          throw new IllegalStateException(e);
        }
        write(b, f.getValue(), depth + 1);
        b.append(it.hasNext() ? ",\n" : "\n");
      }
    }
    b.append("  ".repeat(depth)).append(n.isArray() ? ']' : '}');
  }

  // ---- reading ----

  /** A parsed {@code entries.json}: its table entries, in file order. */
  public static List<P4TableEntry> readEntries(String json) {
    JsonNode root = parse(json, "entries.json");
    JsonNode list = root.get("table_entries");
    if (list == null || !list.isArray()) {
      throw new IllegalArgumentException("entries.json: no table_entries array");
    }
    List<P4TableEntry> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String where = "entries.json: table_entries[" + i + "]";
      JsonNode e = list.get(i);
      String table = text(e, "table", where);
      JsonNode match = object(e, "match", where);
      Map<String, KeyMatch> m = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = match.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> f = it.next();
        m.put(f.getKey(), readKeyMatch(f.getValue(), where + ".match." + f.getKey()));
      }
      int priority = 0;
      if (e.has("priority")) {
        if (!e.get("priority").canConvertToInt() || e.get("priority").asInt() < 1) {
          throw new IllegalArgumentException(where + ": priority must be a positive integer");
        }
        priority = e.get("priority").asInt();
      }
      JsonNode action = object(e, "action", where);
      String name = text(action, "name", where + ".action");
      Map<String, Long> params = new LinkedHashMap<>();
      JsonNode ps = action.get("params");
      if (ps != null) {
        if (!ps.isObject()) {
          throw new IllegalArgumentException(where + ".action.params: expected an object");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = ps.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> f = it.next();
          params.put(f.getKey(), unsigned(f.getValue(), where + ".action.params." + f.getKey()));
        }
      }
      out.add(new P4TableEntry(table, m, priority, name, params));
    }
    return out;
  }

  /** A parsed {@code groups.json}: ports by multicast group id. */
  public static Map<Integer, int[]> readGroups(String json) {
    JsonNode root = parse(json, "groups.json");
    JsonNode list = root.get("multicast_group_entries");
    if (list == null || !list.isArray()) {
      throw new IllegalArgumentException("groups.json: no multicast_group_entries array");
    }
    Map<Integer, int[]> out = new LinkedHashMap<>();
    for (int i = 0; i < list.size(); i++) {
      String where = "groups.json: multicast_group_entries[" + i + "]";
      JsonNode g = list.get(i);
      JsonNode id = g.get("multicast_group_id");
      if (id == null || !id.canConvertToInt() || id.asInt() < 1 || id.asInt() > 0xffff) {
        throw new IllegalArgumentException(where + ": multicast_group_id must be 1..65535");
      }
      JsonNode replicas = g.get("replicas");
      if (replicas == null || !replicas.isArray()) {
        throw new IllegalArgumentException(where + ": no replicas array");
      }
      int[] ports = new int[replicas.size()];
      for (int r = 0; r < ports.length; r++) {
        JsonNode p = replicas.get(r).get("egress_port");
        if (p == null || !p.canConvertToInt() || p.asInt() < 0) {
          throw new IllegalArgumentException(
              where + ".replicas[" + r + "]: egress_port must be a port number");
        }
        ports[r] = p.asInt();
      }
      if (out.put(id.asInt(), java.util.Arrays.stream(ports).sorted().distinct().toArray())
          != null) {
        throw new IllegalArgumentException(where + ": group " + id.asInt() + " appears twice");
      }
    }
    return out;
  }

  private static KeyMatch readKeyMatch(JsonNode n, String where) {
    if (!n.isObject() || n.size() != 1) {
      throw new IllegalArgumentException(
          where + ": expected one of exact, ternary, range, lpm as the only key");
    }
    String kind = n.fieldNames().next();
    JsonNode v = n.get(kind);
    String at = where + "." + kind;
    if (!v.isObject()) {
      throw new IllegalArgumentException(at + ": expected an object");
    }
    KeyKind k;
    try {
      k = KeyKind.parse(kind);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
    }
    try {
      return switch (k) {
        case EXACT -> new KeyMatch.Exact(unsigned(v.get("value"), at + ".value"));
        case TERNARY ->
            new KeyMatch.Ternary(
                unsigned(v.get("value"), at + ".value"), unsigned(v.get("mask"), at + ".mask"));
        case RANGE ->
            new KeyMatch.Range(
                unsigned(v.get("low"), at + ".low"), unsigned(v.get("high"), at + ".high"));
        case LPM -> {
          JsonNode len = v.get("prefix_len");
          if (len == null || !len.canConvertToInt()) {
            throw new IllegalArgumentException(at + ".prefix_len: expected an integer");
          }
          yield new KeyMatch.Lpm(unsigned(v.get("value"), at + ".value"), len.asInt());
        }
      };
    } catch (IllegalArgumentException e) {
      if (e.getMessage().startsWith(where)) {
        throw e;
      }
      throw new IllegalArgumentException(at + ": " + e.getMessage(), e);
    }
  }

  private static long unsigned(JsonNode n, String where) {
    if (n == null || !n.isTextual()) {
      throw new IllegalArgumentException(where + ": expected an unsigned decimal string");
    }
    try {
      return Long.parseUnsignedLong(n.asText());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          where + ": '" + n.asText() + "' is no unsigned 64-bit decimal", e);
    }
  }

  private static JsonNode parse(String json, String name) {
    try {
      JsonNode n = MAPPER.readTree(json);
      if (n == null || !n.isObject()) {
        throw new IllegalArgumentException(name + ": expected a JSON object");
      }
      return n;
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(name + ": " + e.getOriginalMessage(), e);
    }
  }

  private static String text(JsonNode n, String key, String where) {
    JsonNode v = n.get(key);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException(where + ": " + key + " must be a string");
    }
    return v.asText();
  }

  private static JsonNode object(JsonNode n, String key, String where) {
    JsonNode v = n.get(key);
    if (v == null || !v.isObject()) {
      throw new IllegalArgumentException(where + ": " + key + " must be an object");
    }
    return v;
  }
}
