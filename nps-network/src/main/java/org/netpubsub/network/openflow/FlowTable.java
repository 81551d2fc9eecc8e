package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * One OpenFlow table of the simulated switch: entries kept by descending priority, then by age
 * (oldest first), so a lookup's candidates come out in a stable order. Each priority holds its
 * entries in insertion order (a new entry is always the youngest), so adding and removing cost a
 * hash operation rather than a walk down a tree of thousands of entries. An index by (priority,
 * match) finds OpenFlow's "identical" entry without a scan: strict modifications and replacing adds
 * stay cheap with the thousands of flows per switch that control-plane experiments install.
 */
final class FlowTable {
  /** Priority and match never change while an entry is stored (modify only swaps instructions). */
  private record Key(int priority, Match match) {
    static Key of(StoredFlow f) {
      return new Key(f.entry.priority(), f.entry.match());
    }

    // written out: hashed on every add and delete (see Match#equals)
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && priority == k.priority && match.equals(k.match);
    }

    @Override
    public int hashCode() {
      return 31 * priority + match.hashCode();
    }
  }

  // priority (highest first) → its entries, oldest first
  private final TreeMap<Integer, LinkedHashSet<StoredFlow>> byPriority =
      new TreeMap<>(Comparator.reverseOrder());
  private final Map<Key, StoredFlow> identical = new HashMap<>();
  private int size;

  int size() {
    return size;
  }

  /** Every entry in table order (a snapshot). */
  Collection<StoredFlow> all() {
    List<StoredFlow> out = new ArrayList<>(size);
    byPriority.values().forEach(out::addAll);
    return Collections.unmodifiableList(out);
  }

  /** The entry with exactly this priority and match (OpenFlow's "identical" entry), or null. */
  StoredFlow identical(int priority, Match match) {
    return identical.get(new Key(priority, match));
  }

  /** True if a same-priority entry could match a packet this match also matches. */
  boolean overlaps(int priority, Match match) {
    Set<StoredFlow> same = byPriority.get(priority);
    return same != null && same.stream().anyMatch(f -> f.entry.match().overlaps(match));
  }

  /** Adds an entry, the youngest; the caller has removed any identical one. */
  void insert(StoredFlow f) {
    byPriority.computeIfAbsent(f.entry.priority(), p -> new LinkedHashSet<>()).add(f);
    identical.put(Key.of(f), f);
    size++;
  }

  void remove(StoredFlow f) {
    LinkedHashSet<StoredFlow> same = byPriority.get(f.entry.priority());
    if (same != null && same.remove(f)) {
      if (same.isEmpty()) {
        byPriority.remove(f.entry.priority());
      }
      identical.remove(Key.of(f));
      size--;
    }
  }

  /** Removes and returns the entries the predicate selects, in table order. */
  List<StoredFlow> removeIf(Predicate<StoredFlow> which) {
    List<StoredFlow> removed = new ArrayList<>();
    for (Iterator<LinkedHashSet<StoredFlow>> groups = byPriority.values().iterator();
        groups.hasNext(); ) {
      LinkedHashSet<StoredFlow> same = groups.next();
      for (Iterator<StoredFlow> it = same.iterator(); it.hasNext(); ) {
        StoredFlow f = it.next();
        if (which.test(f)) {
          it.remove();
          identical.remove(Key.of(f));
          removed.add(f);
          size--;
        }
      }
      if (same.isEmpty()) {
        groups.remove();
      }
    }
    return removed;
  }

  /**
   * The matching entries of the highest matching priority, oldest first. More than one means the
   * lookup is ambiguous: OpenFlow leaves the choice to the switch.
   */
  List<StoredFlow> lookup(PacketHeaders h, long inPort, long metadata) {
    List<StoredFlow> best = new ArrayList<>(1);
    for (LinkedHashSet<StoredFlow> same : byPriority.values()) {
      for (StoredFlow f : same) {
        if (f.entry.match().matches(h, inPort, metadata)) {
          best.add(f);
        }
      }
      if (!best.isEmpty()) {
        break;
      }
    }
    return best;
  }
}
