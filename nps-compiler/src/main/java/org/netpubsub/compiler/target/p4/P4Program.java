package org.netpubsub.compiler.target.p4;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.aggregate.ConditionalActions;
import org.netpubsub.compiler.pipeline.FieldEntry;
import org.netpubsub.compiler.pipeline.Group;
import org.netpubsub.compiler.pipeline.LeafEntry;
import org.netpubsub.compiler.pipeline.Match;
import org.netpubsub.compiler.pipeline.Pipeline;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.spec.QueryField;

/**
 * A compiled pipeline as v1model tables (Camus Figure 6 on a programmable switch): per query field
 * a table keyed by the BDD state and the field, whose entries set the next state; a leaf table from
 * the final state to a multicast group; the groups' egress ports. Ranges go into ternary and lpm
 * keys as the prefixes that cover them; single values are exact values. A group with conditional
 * actions (aggregates) replicates to their ports — the stateless superset — and its leaf entry is
 * marked {@code set_mgid_conditional} for the last hop's check.
 */
public final class P4Program {
  /** v1model's {@code standard_metadata.mcast_grp} is 16 bits. */
  static final int MAX_GROUP = 0xffff;

  /** v1model ports are 9 bits, and simple_switch drops what goes to port 511. */
  static final int MAX_PORT = 510;

  private final MessageSpec spec;
  private final P4Names names;
  private final int stateBits;
  private final List<P4Table> fieldTables;
  private final P4Table leaf;
  private final List<P4Group> groups;
  private final ConditionalActions conditional;
  private final Map<Integer, int[]> conditionalGroups;
  private final int rules;

  private P4Program(
      MessageSpec spec,
      P4Names names,
      int stateBits,
      List<P4Table> fieldTables,
      P4Table leaf,
      List<P4Group> groups,
      ConditionalActions conditional,
      Map<Integer, int[]> conditionalGroups,
      int rules) {
    this.spec = spec;
    this.names = names;
    this.stateBits = stateBits;
    this.fieldTables = List.copyOf(fieldTables);
    this.leaf = leaf;
    this.groups = List.copyOf(groups);
    this.conditional = conditional;
    this.conditionalGroups = conditionalGroups;
    this.rules = rules;
  }

  /**
   * Translates a compilation; IllegalArgumentException when it does not fit v1model (more than
   * 65535 groups, a port above 510).
   */
  public static P4Program of(Compilation c) {
    Pipeline p = c.pipeline();
    MessageSpec spec = p.spec();
    P4Names names = P4Names.of(spec);
    int stateBits = p.stateBits();
    ConditionalActions conditional = c.conditionalActions();
    List<P4Table> tables = new ArrayList<>();
    for (int f = 0; f < spec.fields().size(); f++) {
      tables.add(fieldTable(spec.field(f), names, f, stateBits, List.copyOf(p.table(f))));
    }
    List<P4Group> groups = new ArrayList<>();
    Map<Integer, int[]> conditionalGroups = new LinkedHashMap<>();
    List<Group> sorted = new ArrayList<>(p.groups());
    sorted.sort(Comparator.comparingInt(Group::id));
    for (Group g : sorted) {
      if (g.id() < 1 || g.id() > MAX_GROUP) {
        throw new IllegalArgumentException(
            "multicast group "
                + g.id()
                + " does not fit v1model's 16-bit mcast_grp (1.."
                + MAX_GROUP
                + ")");
      }
      int[] ports = conditional.ports(g.actions());
      for (int port : ports) {
        if (port > MAX_PORT) {
          throw new IllegalArgumentException(
              "port " + port + " does not fit v1model's 9-bit ports (0.." + MAX_PORT + ")");
        }
      }
      groups.add(new P4Group(g.id(), ports));
      int[] cond =
          java.util.Arrays.stream(g.actions()).filter(ConditionalActions::isConditional).toArray();
      if (cond.length > 0) {
        conditionalGroups.put(g.id(), g.actions());
      }
    }
    List<P4TableEntry> leaves = new ArrayList<>();
    List<LeafEntry> leafEntries = new ArrayList<>(p.leafTable());
    leafEntries.sort(Comparator.comparingInt(LeafEntry::state));
    String leafName = P4Names.qualified(P4Names.LEAF);
    for (LeafEntry e : leafEntries) {
      String action =
          conditionalGroups.containsKey(e.group())
              ? P4Names.SET_MGID_CONDITIONAL
              : P4Names.SET_MGID;
      leaves.add(
          new P4TableEntry(
              leafName,
              Map.of(P4Names.STATE, new KeyMatch.Exact(e.state())),
              0,
              action,
              Map.of("g", (long) e.group())));
    }
    List<String> leafActions = new ArrayList<>(List.of(P4Names.SET_MGID));
    if (!conditional.isEmpty()) {
      leafActions.add(P4Names.SET_MGID_CONDITIONAL);
    }
    leafActions.add(P4Names.DROP);
    P4Table leaf =
        new P4Table(
            P4Names.LEAF,
            List.of(new P4Table.Key(P4Names.STATE, KeyKind.EXACT, stateBits)),
            leafActions,
            P4Names.DROP,
            leaves);
    return new P4Program(
        spec,
        names,
        stateBits,
        tables,
        leaf,
        groups,
        conditional,
        conditionalGroups,
        c.ruleCount());
  }

  private static P4Table fieldTable(
      QueryField q, P4Names names, int f, int stateBits, List<FieldEntry> entries) {
    KeyKind kind = KeyKind.of(q, entries);
    String table = names.table(f);
    String key = names.field(f);
    List<FieldEntry> sorted = new ArrayList<>(entries);
    sorted.sort(Comparator.comparingInt(FieldEntry::state).thenComparing(P4Program::byLow));
    List<P4TableEntry> out = new ArrayList<>();
    for (FieldEntry e : sorted) {
      int priority = kind.needsPriority() ? e.priority() : 0;
      for (KeyMatch m : keyMatches(kind, e.match(), q.width())) {
        Map<String, KeyMatch> match = new LinkedHashMap<>();
        match.put(P4Names.STATE, new KeyMatch.Exact(e.state()));
        if (m != null) {
          match.put(key, m);
        }
        out.add(
            new P4TableEntry(
                P4Names.qualified(table),
                match,
                priority,
                P4Names.SET_STATE,
                Map.of("s", (long) e.next())));
      }
    }
    return new P4Table(
        table,
        List.of(
            new P4Table.Key(P4Names.STATE, KeyKind.EXACT, stateBits),
            new P4Table.Key(key, kind, q.width())),
        List.of(P4Names.SET_STATE, P4Names.NO_ACTION),
        P4Names.NO_ACTION,
        out);
  }

  /** What an entry's match becomes under a key kind; null stands for don't-care. */
  static List<KeyMatch> keyMatches(KeyKind kind, Match m, int width) {
    List<KeyMatch> out = new ArrayList<>();
    switch (m) {
      case Match.Any a -> {
        if (kind == KeyKind.EXACT) {
          throw new IllegalArgumentException("an exact key cannot match any value");
        }
        out.add(null);
      }
      case Match.Value v ->
          out.add(
              switch (kind) {
                case EXACT -> new KeyMatch.Exact(v.value());
                case TERNARY -> new KeyMatch.Ternary(v.value(), Prefix.max(width));
                case RANGE -> new KeyMatch.Range(v.value(), v.value());
                case LPM -> new KeyMatch.Lpm(v.value(), width);
              });
      case Match.Range r -> {
        switch (kind) {
          case EXACT -> throw new IllegalArgumentException("an exact key cannot match " + r);
          case RANGE -> out.add(new KeyMatch.Range(r.lo(), r.hi()));
          case TERNARY -> {
            for (Prefix x : Prefix.cover(r.lo(), r.hi(), width)) {
              out.add(x.length() == 0 ? null : new KeyMatch.Ternary(x.value(), x.mask()));
            }
          }
          case LPM -> {
            for (Prefix x : Prefix.cover(r.lo(), r.hi(), width)) {
              out.add(x.length() == 0 ? null : KeyMatch.Lpm.of(x));
            }
          }
        }
      }
    }
    return out;
  }

  private static int byLow(FieldEntry a, FieldEntry b) {
    return Long.compareUnsigned(low(a.match()), low(b.match()));
  }

  private static long low(Match m) {
    return switch (m) {
      case Match.Value v -> v.value();
      case Match.Range r -> r.lo();
      case Match.Any a -> -1L; // last
    };
  }

  public MessageSpec spec() {
    return spec;
  }

  public P4Names names() {
    return names;
  }

  /** Bits of {@code meta.camus_state}. */
  public int stateBits() {
    return stateBits;
  }

  /** The field tables, in spec order. */
  public List<P4Table> fieldTables() {
    return fieldTables;
  }

  public P4Table leaf() {
    return leaf;
  }

  /** Field tables then the leaf table: the order of the apply block. */
  public List<P4Table> tables() {
    List<P4Table> all = new ArrayList<>(fieldTables);
    all.add(leaf);
    return all;
  }

  public List<P4Group> groups() {
    return groups;
  }

  public ConditionalActions conditionalActions() {
    return conditional;
  }

  /** Per group with conditional actions, all its action ids (ports and conditional ids). */
  public Map<Integer, int[]> conditionalGroups() {
    return java.util.Collections.unmodifiableMap(conditionalGroups);
  }

  /** The most slots one conditional group updates: the update stages a switch would unroll. */
  public int maxSlotsPerGroup() {
    int max = 0;
    for (int[] actions : conditionalGroups.values()) {
      java.util.Set<Integer> slots = new java.util.HashSet<>();
      for (int a : actions) {
        conditional.get(a).ifPresent(c -> c.conditions().forEach(x -> slots.add(x.slot())));
      }
      max = Math.max(max, slots.size());
    }
    return max;
  }

  public int rules() {
    return rules;
  }

  /** Table entries once ranges are expanded, over all tables. */
  public int entries() {
    return tables().stream().mapToInt(t -> t.entries().size()).sum();
  }
}
