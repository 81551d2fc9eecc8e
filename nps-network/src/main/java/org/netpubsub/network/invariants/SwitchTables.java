package org.netpubsub.network.invariants;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.MaskedLong;
import org.netpubsub.network.openflow.PacketHeaders;

/**
 * One switch's flows and groups as the checker looks them up, kept up to date entry by entry (the
 * checker's per-switch index, updated by each batch's delta instead of rebuilt): per table, the
 * entries that match {@code ipv6_dst} grouped by its mask and hashed by the masked address, and the
 * others by descending priority. A lookup hashes the address once per mask the table holds (Open
 * vSwitch's tuple space search) instead of trying every entry: unicast routes are thousands of
 * exact addresses on a big fabric, and a layout switch holds two layouts' content prefixes,
 * thousands per switch under a few dozen masks, which a linear scan made most of the switch's time.
 * Among equal priorities the oldest entry comes first, as in the simulated switch's tables; an
 * entry taken back out and restored ({@link #restore}) keeps its age, so a refused batch leaves the
 * order as it was. Mutable, not thread-safe.
 */
final class SwitchTables {
  /** A stored entry and its age (the order of equal priorities). */
  record Stored(FlowEntry entry, long age) {}

  private static final class Table {
    // by ipv6_dst mask, then by the masked address; each list by descending priority, then age
    final Map<Ipv6Address, Map<Ipv6Address, List<Stored>>> byMask = new HashMap<>();
    final List<Stored> others = new ArrayList<>(); // no ipv6_dst
    // per ipv6_dst mask, built when a region's lookup first needs it and dropped when an entry
    // under the mask comes or goes: the values by the metadata their entries match (mask, then
    // the masked value). A Camus field table holds every BDD state's values under the same masks
    // and a packet is in one state, so a region's lookup scans that state's values, not all.
    final Map<Ipv6Address, Map<Long, Map<Long, List<Ipv6Address>>>> byMetadata = new HashMap<>();
    int size;

    Map<Long, Map<Long, List<Ipv6Address>>> byMetadata(Ipv6Address mask) {
      Map<Long, Map<Long, List<Ipv6Address>>> index = byMetadata.get(mask);
      if (index == null) {
        index = new HashMap<>();
        for (Map.Entry<Ipv6Address, List<Stored>> v : byMask.get(mask).entrySet()) {
          for (Stored s : v.getValue()) {
            MaskedLong m = s.entry().match().metadata();
            List<Ipv6Address> values =
                index
                    .computeIfAbsent(m == null ? 0L : m.mask(), x -> new HashMap<>())
                    .computeIfAbsent(m == null ? 0L : m.value(), x -> new ArrayList<>());
            if (values.isEmpty() || !values.getLast().equals(v.getKey())) {
              values.add(v.getKey());
            }
          }
        }
        byMetadata.put(mask, index);
      }
      return index;
    }
  }

  private final Map<Integer, Table> tables = new HashMap<>();
  private final Map<Long, GroupEntry> groups = new HashMap<>();
  // the entries that match an in_port, and per (table, priority) the number of those that do not:
  // what tells a switch's in-ports apart ({@link PortClasses}), kept here so a check need not scan
  private final List<Stored> portEntries = new ArrayList<>();
  private final Map<Long, Integer> commonPriorities = new HashMap<>();
  private long nextAge;
  private int size;

  boolean isEmpty() {
    return size == 0 && groups.isEmpty();
  }

  /**
   * Every stored entry, by table, then those matching {@code ipv6_dst} by mask and address (in
   * lookup order for each), then the others in lookup order.
   */
  List<Stored> stored() {
    Comparator<Ipv6Address> text = Comparator.comparing(Ipv6Address::toString);
    List<Stored> out = new ArrayList<>(size);
    new TreeMap<>(tables)
        .values()
        .forEach(
            t -> {
              t.byMask.entrySet().stream()
                  .sorted(Map.Entry.comparingByKey(text))
                  .forEach(
                      m ->
                          m.getValue().entrySet().stream()
                              .sorted(Map.Entry.comparingByKey(text))
                              .forEach(e -> out.addAll(e.getValue())));
              out.addAll(t.others);
            });
    return out;
  }

  /** Every flow, in no particular order. */
  List<FlowEntry> flows() {
    List<FlowEntry> out = new ArrayList<>(size);
    for (Table t : tables.values()) {
      t.byMask.values().forEach(m -> m.values().forEach(l -> l.forEach(s -> out.add(s.entry()))));
      t.others.forEach(s -> out.add(s.entry()));
    }
    return out;
  }

  Collection<GroupEntry> groups() {
    return groups.values();
  }

  GroupEntry group(long id) {
    return groups.get(id);
  }

  /** Puts a group (replacing one with its id); the one it replaced, or null. */
  GroupEntry putGroup(GroupEntry g) {
    return groups.put(g.groupId(), g);
  }

  /** Removes a group; the one removed, or null. */
  GroupEntry removeGroup(long id) {
    return groups.remove(id);
  }

  /** Adds a flow as the youngest of its priority. */
  Stored add(FlowEntry f) {
    Stored s = new Stored(f, nextAge++);
    restore(s);
    return s;
  }

  /** Puts back an entry that {@link #remove} took out, at its old place. */
  void restore(Stored s) {
    Table t = tables.computeIfAbsent(s.entry().tableId(), id -> new Table());
    List<Stored> l = listOf(t, s.entry(), true);
    forget(t, s.entry());
    l.add(insertionPoint(l, s), s);
    t.size++;
    size++;
    counted(s, +1);
  }

  private void counted(Stored s, int delta) {
    FlowEntry f = s.entry();
    if (f.match().inPort() != null) {
      if (delta > 0) {
        portEntries.add(s);
      } else {
        portEntries.remove(s);
      }
    } else {
      commonPriorities.merge(
          tablePriority(f.tableId(), f.priority()), delta, (a, b) -> a + b == 0 ? null : a + b);
    }
  }

  private static long tablePriority(int table, int priority) {
    return ((long) table << 32) | priority;
  }

  /** The entries that match an in_port, in no particular order. */
  List<Stored> portEntries() {
    return portEntries;
  }

  /** Whether an entry that matches no in_port has this priority in this table. */
  boolean hasCommon(int table, int priority) {
    return commonPriorities.containsKey(tablePriority(table, priority));
  }

  /** Removes one entry equal to {@code f} (the oldest); the stored one, or null if none. */
  Stored remove(FlowEntry f) {
    return remove(f, null);
  }

  /** Removes exactly this stored entry (undoing its {@link #add}). */
  void remove(Stored s) {
    remove(s.entry(), s);
  }

  private Stored remove(FlowEntry f, Stored exactly) {
    Table t = tables.get(f.tableId());
    if (t == null) {
      return null;
    }
    List<Stored> l = listOf(t, f, false);
    if (l == null) {
      return null;
    }
    int from = insertionPoint(l, new Stored(f, Long.MIN_VALUE));
    for (int i = from; i < l.size() && l.get(i).entry().priority() == f.priority(); i++) {
      Stored at = l.get(i);
      if (exactly == null ? at.entry().equals(f) : at.age() == exactly.age()) {
        Stored s = l.remove(i);
        counted(s, -1);
        forget(t, f);
        if (l.isEmpty() && l != t.others) {
          MaskedIpv6 d = f.match().ipv6Dst();
          Map<Ipv6Address, List<Stored>> m = t.byMask.get(d.mask());
          m.remove(d.value());
          if (m.isEmpty()) {
            t.byMask.remove(d.mask());
          }
        }
        if (--t.size == 0) {
          tables.remove(f.tableId());
        }
        size--;
        return s;
      }
    }
    return null;
  }

  private static void forget(Table t, FlowEntry f) {
    if (f.match().ipv6Dst() != null) {
      t.byMetadata.remove(f.match().ipv6Dst().mask());
    }
  }

  private static List<Stored> listOf(Table t, FlowEntry f, boolean create) {
    MaskedIpv6 d = f.match().ipv6Dst();
    if (d == null) {
      return t.others;
    }
    if (create) {
      return t.byMask
          .computeIfAbsent(d.mask(), x -> new HashMap<>())
          .computeIfAbsent(d.value(), x -> new ArrayList<>(1));
    }
    Map<Ipv6Address, List<Stored>> m = t.byMask.get(d.mask());
    return m == null ? null : m.get(d.value());
  }

  /** The index of the first stored entry after {@code s}: descending priority, then age. */
  private static int insertionPoint(List<Stored> l, Stored s) {
    int lo = 0;
    int hi = l.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      Stored m = l.get(mid);
      boolean before =
          m.entry().priority() > s.entry().priority()
              || (m.entry().priority() == s.entry().priority() && m.age() < s.age());
      if (before) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** The entry a packet hits in a table (highest priority), or null on a table miss. */
  FlowEntry lookup(int table, PacketHeaders h, long inPort, long metadata) {
    Table t = tables.get(table);
    if (t == null) {
      return null;
    }
    Stored best = null;
    if (h.isIpv6()) {
      // the first match under each mask; the best of them by priority, then age
      for (Map.Entry<Ipv6Address, Map<Ipv6Address, List<Stored>>> m : t.byMask.entrySet()) {
        List<Stored> l = m.getValue().get(h.ipv6Dst().and(m.getKey()));
        if (l == null) {
          continue;
        }
        for (Stored s : l) {
          if (best != null && precedes(best, s)) {
            break;
          }
          if (s.entry().match().matches(h, inPort, metadata)) {
            best = s;
            break;
          }
        }
      }
    }
    return againstOthers(t, best, h, inPort, metadata);
  }

  /** A value under an {@code ipv6_dst} mask that meets the region, and the entry it gives. */
  private record Candidate(MaskedIpv6 field, Stored stored) {}

  /**
   * The entry the region's representative ({@code h}'s destination) hits, as {@link #lookup}, the
   * region cut ({@link Cube}) so that every address left in it hits an entry with the same
   * instructions (the pipeline cannot tell them apart). The values that meet the region are taken
   * in lookup order; those before the representative's winner are cut off, the alike ones in one
   * box where they are one (a range's TCAM prefixes), and the region is narrowed into the union of
   * the winner's field and every alike field that no entry of other instructions between them in
   * lookup order meets. Stop 43 cut into one value at a time, so a region met by ranges of several
   * fields was cut into the product of their prefixes; now it is the product of the ranges.
   */
  FlowEntry lookup(int table, PacketHeaders h, long inPort, long metadata, Cube cube) {
    Table t = tables.get(table);
    if (t == null) {
      return null;
    }
    if (!h.isIpv6()) {
      return againstOthers(t, null, h, inPort, metadata);
    }
    Stored other = first(t.others, null, h, inPort, metadata);
    List<Candidate> cands = candidates(t, h, inPort, metadata, cube, other);
    Ipv6Address r = h.ipv6Dst();
    int wi = 0;
    while (wi < cands.size() && !cands.get(wi).field().matches(r)) {
      wi++;
    }
    Candidate w = wi < cands.size() ? cands.get(wi) : null;
    // the values before the winner hold no address left: cut off, a class of alike ones at a time
    boolean[] cut = new boolean[wi];
    for (int i = 0; i < wi; i++) {
      if (cut[i] || (w != null && alike(cands.get(i), w))) {
        continue;
      }
      Box u = cube.shaped(cands.get(i).field());
      for (int j = i + 1; j < wi; j++) {
        if (!cut[j] && alike(cands.get(i), cands.get(j))) {
          Box joined = u.unionWith(cube.shaped(cands.get(j).field()));
          if (joined != null) {
            u = joined;
            cut[j] = true;
          }
        }
      }
      if (cube.region().meets(u)) {
        cube.narrowOutOf(u);
      }
    }
    if (w == null) {
      return other == null ? null : other.entry();
    }
    // alike values joined with the winner's, unless an entry of other instructions that comes
    // before one in lookup order (after the winner: those before it are cut off) meets it
    Box u = cube.shaped(w.field());
    List<Candidate> between = new ArrayList<>();
    for (int j = 0; j < cands.size(); j++) {
      Candidate c = cands.get(j);
      if (j == wi || (j < wi && !alike(c, w))) {
        continue;
      }
      if (!alike(c, w)) {
        between.add(c);
        continue;
      }
      boolean beaten = false;
      for (Candidate b : between) {
        if (b.field().overlaps(c.field())) {
          beaten = true;
          break;
        }
      }
      Box joined = beaten ? null : u.unionWith(cube.shaped(c.field()));
      if (joined != null) {
        u = joined;
      }
    }
    cube.narrowInto(u);
    return w.stored().entry();
  }

  /**
   * The values that meet the region, each with the first entry under it that matches (other fields
   * as {@code h}), those that come before {@code other} (the table's best entry without {@code
   * ipv6_dst}) only, in lookup order.
   */
  private List<Candidate> candidates(
      Table t, PacketHeaders h, long inPort, long metadata, Cube cube, Stored other) {
    Ipv6Address r = h.ipv6Dst();
    List<Candidate> out = new ArrayList<>();
    for (Map.Entry<Ipv6Address, Map<Ipv6Address, List<Stored>>> m : t.byMask.entrySet()) {
      Ipv6Address mask = m.getKey();
      if (cube.fixes(mask)) {
        Stored s = first(m.getValue().get(r.and(mask)), other, h, inPort, metadata);
        if (s != other) {
          out.add(new Candidate(new MaskedIpv6(r.and(mask), mask), s));
        }
        continue;
      }
      // only the values with an entry whose metadata match the packet's can be hit
      for (Map.Entry<Long, Map<Long, List<Ipv6Address>>> g : t.byMetadata(mask).entrySet()) {
        List<Ipv6Address> values = g.getValue().get(metadata & g.getKey());
        if (values == null) {
          continue;
        }
        for (Ipv6Address value : values) {
          MaskedIpv6 field = new MaskedIpv6(value, mask);
          if (!cube.overlaps(field)) {
            continue;
          }
          // the representative moved into the field: the entries' other fields judged as for h
          PacketHeaders inside = h.withIpv6Dst(value.or(r.and(mask.not())));
          Stored s = first(m.getValue().get(value), other, inside, inPort, metadata);
          if (s != other) {
            out.add(new Candidate(field, s));
          }
        }
      }
    }
    out.sort(
        Comparator.comparingInt((Candidate c) -> -c.stored().entry().priority())
            .thenComparingLong(c -> c.stored().age()));
    return out;
  }

  /** Whether two values' entries do the same to a packet (their instructions are equal). */
  private static boolean alike(Candidate a, Candidate b) {
    return a.stored().entry().instructions().equals(b.stored().entry().instructions());
  }

  /** The first of a list's entries that matches and beats {@code best}; else {@code best}. */
  private static Stored first(
      List<Stored> l, Stored best, PacketHeaders h, long inPort, long metadata) {
    if (l != null) {
      for (Stored s : l) {
        if (best != null && precedes(best, s)) {
          break;
        }
        if (s.entry().match().matches(h, inPort, metadata)) {
          return s;
        }
      }
    }
    return best;
  }

  private static boolean precedes(Stored a, Stored b) {
    int pa = a.entry().priority();
    int pb = b.entry().priority();
    return pa > pb || (pa == pb && a.age() < b.age());
  }

  /** The winner between the best masked-destination entry and the table's other entries. */
  private static FlowEntry againstOthers(
      Table t, Stored best, PacketHeaders h, long inPort, long metadata) {
    for (Stored s : t.others) {
      if (best != null && precedes(best, s)) {
        break;
      }
      if (s.entry().match().matches(h, inPort, metadata)) {
        return s.entry();
      }
    }
    return best == null ? null : best.entry();
  }
}
