package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * One OpenFlow table of the simulated switch: entries kept by descending priority, then by age
 * (oldest first), so a lookup's candidates come out in a stable order. An index by (priority,
 * match) finds OpenFlow's "identical" entry without a scan: strict modifications and replacing adds
 * cost O(log n), which control-plane experiments with thousands of flows per switch need.
 */
final class FlowTable {
  private static final Comparator<StoredFlow> ORDER =
      Comparator.<StoredFlow>comparingInt(f -> -f.entry.priority())
          .thenComparingLong(f -> f.sequence);

  /** Priority and match never change while an entry is stored (modify only swaps instructions). */
  private record Key(int priority, Match match) {
    static Key of(StoredFlow f) {
      return new Key(f.entry.priority(), f.entry.match());
    }
  }

  private final TreeSet<StoredFlow> flows = new TreeSet<>(ORDER);
  private final Map<Key, StoredFlow> identical = new HashMap<>();

  int size() {
    return flows.size();
  }

  /** Every entry in table order. */
  Collection<StoredFlow> all() {
    return Collections.unmodifiableSet(flows);
  }

  /** The entry with exactly this priority and match (OpenFlow's "identical" entry), or null. */
  StoredFlow identical(int priority, Match match) {
    return identical.get(new Key(priority, match));
  }

  /** True if a same-priority entry could match a packet this match also matches. */
  boolean overlaps(int priority, Match match) {
    return flows.stream()
        .anyMatch(f -> f.entry.priority() == priority && f.entry.match().overlaps(match));
  }

  /** Adds an entry; the caller has removed any identical one. */
  void insert(StoredFlow f) {
    flows.add(f);
    identical.put(Key.of(f), f);
  }

  void remove(StoredFlow f) {
    flows.remove(f);
    identical.remove(Key.of(f));
  }

  /** Removes and returns the entries the predicate selects. */
  List<StoredFlow> removeIf(Predicate<StoredFlow> which) {
    List<StoredFlow> removed = new ArrayList<>();
    for (Iterator<StoredFlow> it = flows.iterator(); it.hasNext(); ) {
      StoredFlow f = it.next();
      if (which.test(f)) {
        it.remove();
        identical.remove(Key.of(f));
        removed.add(f);
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
    for (StoredFlow f : flows) {
      if (!best.isEmpty() && f.entry.priority() < best.get(0).entry.priority()) {
        break;
      }
      if (f.entry.match().matches(h, inPort, metadata)) {
        best.add(f);
      }
    }
    return best;
  }
}
