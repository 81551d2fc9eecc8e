package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Predicate;

/**
 * One OpenFlow table of the simulated switch: entries kept by descending priority, then by age
 * (oldest first), so a lookup's candidates come out in a stable order. Each priority keeps its
 * entries in one insertion-ordered map by match: a new entry is always the youngest, and the map
 * finds OpenFlow's "identical" entry (same priority and match) without a scan, so adding, replacing
 * and strictly deleting cost one or two hash operations even with the thousands of flows per switch
 * that control-plane experiments install. Tables hold a few distinct priorities, searched in a
 * sorted array.
 */
final class FlowTable {
  /** One priority's entries by match, oldest first; a match never changes while stored. */
  private record Priority(int value, LinkedHashMap<Match, StoredFlow> entries) {}

  private final List<Priority> byPriority = new ArrayList<>(); // highest first
  private int size;

  int size() {
    return size;
  }

  /** Every entry in table order (a snapshot). */
  Collection<StoredFlow> all() {
    List<StoredFlow> out = new ArrayList<>(size);
    byPriority.forEach(p -> out.addAll(p.entries.values()));
    return Collections.unmodifiableList(out);
  }

  /** The entry with exactly this priority and match (OpenFlow's "identical" entry), or null. */
  StoredFlow identical(int priority, Match match) {
    int at = indexOf(priority);
    return at < 0 ? null : byPriority.get(at).entries.get(match);
  }

  /** True if a same-priority entry could match a packet this match also matches. */
  boolean overlaps(int priority, Match match) {
    int at = indexOf(priority);
    return at >= 0 && byPriority.get(at).entries.keySet().stream().anyMatch(m -> m.overlaps(match));
  }

  /** Adds an entry, the youngest; the caller has removed any identical one. */
  void insert(StoredFlow f) {
    int priority = f.entry.priority();
    int at = indexOf(priority);
    if (at < 0) {
      at = -at - 1;
      byPriority.add(at, new Priority(priority, new LinkedHashMap<>()));
    }
    byPriority.get(at).entries.put(f.entry.match(), f);
    size++;
  }

  void remove(StoredFlow f) {
    int at = indexOf(f.entry.priority());
    if (at >= 0 && byPriority.get(at).entries.remove(f.entry.match(), f)) {
      if (byPriority.get(at).entries.isEmpty()) {
        byPriority.remove(at);
      }
      size--;
    }
  }

  /** Removes and returns the entries the predicate selects, in table order. */
  List<StoredFlow> removeIf(Predicate<StoredFlow> which) {
    List<StoredFlow> removed = new ArrayList<>();
    for (Iterator<Priority> groups = byPriority.iterator(); groups.hasNext(); ) {
      LinkedHashMap<Match, StoredFlow> same = groups.next().entries;
      for (Iterator<StoredFlow> it = same.values().iterator(); it.hasNext(); ) {
        StoredFlow f = it.next();
        if (which.test(f)) {
          it.remove();
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
    for (Priority p : byPriority) {
      for (StoredFlow f : p.entries.values()) {
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

  /** The priority's index in {@link #byPriority}, or -(insertion point) - 1 (binary search). */
  private int indexOf(int priority) {
    int lo = 0;
    int hi = byPriority.size() - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int p = byPriority.get(mid).value;
      if (p == priority) {
        return mid;
      }
      if (p > priority) {
        lo = mid + 1; // descending: lower priorities lie further on
      } else {
        hi = mid - 1;
      }
    }
    return -(lo + 1);
  }
}
