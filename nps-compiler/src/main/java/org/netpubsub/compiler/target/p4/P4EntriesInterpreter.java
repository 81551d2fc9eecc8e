package org.netpubsub.compiler.target.p4;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netpubsub.compiler.spec.MatchKind;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.spec.QueryField;

/**
 * Runs {@code entries.json} and {@code groups.json} the way a v1model switch runs {@code camus.p4}
 * with them, from the files alone: the state starts at 0; each field table (in spec order) takes
 * the matching entry of highest priority (ternary, range), the longest prefix (lpm) or the one
 * exact match, and a miss runs NoAction (the state stays); the leaf table picks a multicast group,
 * a miss drops; the group's replicas are the ports. Entries are checked on the way in (known
 * tables, actions and groups; the key kinds the spec allows; values within the field's width; a
 * priority exactly where P4Runtime wants one; no duplicate keys), and two best matches that
 * disagree are an error, not a guess. Immutable.
 */
public final class P4EntriesInterpreter {
  /** One entry of a field table: what it matches on the field (null: any), its rank, its next. */
  private record Candidate(KeyMatch field, int rank, long next) {}

  private static final class FieldTable {
    final String name;
    final String key;
    final QueryField field;
    final Map<Long, List<Candidate>> byState = new HashMap<>();
    KeyKind kind;

    FieldTable(String name, String key, QueryField field) {
      this.name = name;
      this.key = key;
      this.field = field;
    }
  }

  private final FieldTable[] tables;
  private final Map<Long, Integer> leaf; // final state → group
  private final Map<Integer, int[]> groups;

  private P4EntriesInterpreter(
      FieldTable[] tables, Map<Long, Integer> leaf, Map<Integer, int[]> groups) {
    this.tables = tables;
    this.leaf = leaf;
    this.groups = groups;
  }

  /**
   * Reads the runtime files of a program compiled for {@code spec}; IllegalArgumentException,
   * naming the entry, when they are not entries that program accepts.
   */
  public static P4EntriesInterpreter of(MessageSpec spec, String entriesJson, String groupsJson) {
    P4Names names = P4Names.of(spec);
    Map<Integer, int[]> groups = P4RuntimeJson.readGroups(groupsJson);
    FieldTable[] tables = new FieldTable[spec.fields().size()];
    Map<String, FieldTable> byName = new HashMap<>();
    for (int f = 0; f < tables.length; f++) {
      tables[f] = new FieldTable(P4Names.qualified(names.table(f)), names.field(f), spec.field(f));
      byName.put(tables[f].name, tables[f]);
    }
    String leafName = P4Names.qualified(P4Names.LEAF);
    Map<Long, Integer> leaf = new HashMap<>();
    Set<List<Object>> keys = new HashSet<>();
    List<P4TableEntry> entries = P4RuntimeJson.readEntries(entriesJson);
    for (int i = 0; i < entries.size(); i++) {
      P4TableEntry e = entries.get(i);
      String where = "entries.json: table_entries[" + i + "] (" + e.table() + ")";
      if (!keys.add(List.of(e.table(), e.match(), e.priority()))) {
        throw new IllegalArgumentException(where + ": a second entry with the same key");
      }
      long state = state(e, where);
      if (e.table().equals(leafName)) {
        leafEntry(e, where, state, groups, leaf);
        continue;
      }
      FieldTable t = byName.get(e.table());
      if (t == null) {
        throw new IllegalArgumentException(where + ": camus.p4 has no such table");
      }
      fieldEntry(t, e, where, state);
    }
    for (FieldTable t : tables) {
      if (t.kind == null) {
        t.kind = defaultKind(t.field);
      }
      checkPriorities(t, entries);
    }
    return new P4EntriesInterpreter(tables, leaf, groups);
  }

  private static long state(P4TableEntry e, String where) {
    KeyMatch s = e.match().get(P4Names.STATE);
    if (!(s instanceof KeyMatch.Exact x)) {
      throw new IllegalArgumentException(where + ": needs an exact match on " + P4Names.STATE);
    }
    return x.value();
  }

  private static void leafEntry(
      P4TableEntry e,
      String where,
      long state,
      Map<Integer, int[]> groups,
      Map<Long, Integer> leaf) {
    if (e.match().size() != 1) {
      throw new IllegalArgumentException(where + ": the leaf table's key is the state alone");
    }
    if (e.priority() != 0) {
      throw new IllegalArgumentException(where + ": an exact table takes no priority");
    }
    if (e.action().equals(P4Names.DROP)) {
      return;
    }
    if (!e.action().equals(P4Names.SET_MGID) && !e.action().equals(P4Names.SET_MGID_CONDITIONAL)) {
      throw new IllegalArgumentException(where + ": the leaf table has no action " + e.action());
    }
    Long g = e.params().get("g");
    if (g == null || e.params().size() != 1) {
      throw new IllegalArgumentException(where + ": " + e.action() + " takes one parameter, g");
    }
    if (g < 1 || g > P4Program.MAX_GROUP || !groups.containsKey(g.intValue())) {
      throw new IllegalArgumentException(where + ": groups.json has no multicast group " + g);
    }
    leaf.put(state, g.intValue());
  }

  private static void fieldEntry(FieldTable t, P4TableEntry e, String where, long state) {
    for (String k : e.match().keySet()) {
      if (!k.equals(P4Names.STATE) && !k.equals(t.key)) {
        throw new IllegalArgumentException(where + ": the table has no key field " + k);
      }
    }
    KeyMatch m = e.match().get(t.key);
    if (m != null) {
      checkKind(t, m, where);
      checkWidth(t.field, m, where);
    }
    long next;
    if (e.action().equals(P4Names.SET_STATE)) {
      Long s = e.params().get("s");
      if (s == null || e.params().size() != 1) {
        throw new IllegalArgumentException(where + ": set_state takes one parameter, s");
      }
      next = s;
    } else if (e.action().equals(P4Names.NO_ACTION) && e.params().isEmpty()) {
      next = state;
    } else {
      throw new IllegalArgumentException(where + ": the table has no action " + e.action());
    }
    // lpm: the longer prefix wins (a left-out field is /0); else the higher priority
    int rank = m instanceof KeyMatch.Lpm l ? l.length() : e.priority();
    t.byState.computeIfAbsent(state, k -> new ArrayList<>()).add(new Candidate(m, rank, next));
  }

  /** The key kinds camus.p4 gives a field: range, lpm, and exact or ternary for exact fields. */
  private static void checkKind(FieldTable t, KeyMatch m, String where) {
    MatchKind spec = t.field.match();
    boolean allowed =
        switch (m.kind()) {
          case RANGE -> spec == MatchKind.RANGE;
          case LPM -> spec == MatchKind.LPM;
          case EXACT, TERNARY -> spec == MatchKind.EXACT;
        };
    if (!allowed) {
      throw new IllegalArgumentException(
          where
              + ": "
              + t.field.name()
              + " is matched "
              + spec.label()
              + ", not by a "
              + m.kind().label()
              + " key");
    }
    if (t.kind != null && t.kind != m.kind()) {
      throw new IllegalArgumentException(
          where + ": the table's key is " + t.kind.label() + ", not " + m.kind().label());
    }
    t.kind = m.kind();
  }

  private static void checkWidth(QueryField q, KeyMatch m, String where) {
    long max = q.max();
    boolean fits =
        switch (m) {
          case KeyMatch.Exact x -> Long.compareUnsigned(x.value(), max) <= 0;
          case KeyMatch.Ternary x -> Long.compareUnsigned(x.mask(), max) <= 0;
          case KeyMatch.Range x -> Long.compareUnsigned(x.high(), max) <= 0;
          case KeyMatch.Lpm x -> {
            try {
              x.prefix(q.width());
              yield true;
            } catch (IllegalArgumentException e) {
              yield false;
            }
          }
        };
    if (!fits) {
      throw new IllegalArgumentException(
          where + ": the match does not fit " + q.name() + "'s " + q.width() + " bits");
    }
  }

  private static KeyKind defaultKind(QueryField q) {
    return switch (q.match()) {
      case RANGE -> KeyKind.RANGE;
      case LPM -> KeyKind.LPM;
      case EXACT -> KeyKind.TERNARY; // only don't-care entries: a ternary key
    };
  }

  private static void checkPriorities(FieldTable t, List<P4TableEntry> entries) {
    for (int i = 0; i < entries.size(); i++) {
      P4TableEntry e = entries.get(i);
      if (!e.table().equals(t.name)) {
        continue;
      }
      String where = "entries.json: table_entries[" + i + "] (" + e.table() + ")";
      if (t.kind.needsPriority() && e.priority() == 0) {
        throw new IllegalArgumentException(
            where + ": a " + t.kind.label() + " key needs a priority");
      }
      if (!t.kind.needsPriority() && e.priority() != 0) {
        throw new IllegalArgumentException(
            where + ": a " + t.kind.label() + " key takes no priority");
      }
      if (t.kind == KeyKind.EXACT && !e.match().containsKey(t.key)) {
        throw new IllegalArgumentException(where + ": an exact key cannot be left out");
      }
    }
  }

  /** The multicast group a message with these field values gets, or −1 (dropped). */
  public int group(long[] values) {
    if (values.length != tables.length) {
      throw new IllegalArgumentException(
          "expected " + tables.length + " field values, got " + values.length);
    }
    long state = 0;
    for (int f = 0; f < tables.length; f++) {
      state = next(tables[f], state, values[f]);
    }
    Integer g = leaf.get(state);
    return g == null ? -1 : g;
  }

  /** The ports a message goes to (its group's replicas), sorted; empty when dropped. */
  public int[] ports(long[] values) {
    int g = group(values);
    return g < 0 ? new int[0] : groups.get(g).clone();
  }

  private static long next(FieldTable t, long state, long value) {
    List<Candidate> cs = t.byState.get(state);
    if (cs == null) {
      return state;
    }
    Candidate best = null;
    boolean tie = false;
    for (Candidate c : cs) {
      if (c.field() != null && !c.field().matches(value, t.field.width())) {
        continue;
      }
      if (best == null || c.rank() > best.rank()) {
        best = c;
        tie = false;
      } else if (c.rank() == best.rank() && c.next() != best.next()) {
        tie = true;
      }
    }
    if (tie) {
      throw new IllegalStateException(
          t.name
              + ": entries of equal priority disagree on state "
              + state
              + ", "
              + t.field.name()
              + " = "
              + Long.toUnsignedString(value));
    }
    return best == null ? state : best.next();
  }
}
