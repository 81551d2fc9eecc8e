package org.netpubsub.network.openflow;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * One OpenFlow table of the simulated switch: entries kept by descending priority, then by age
 * (oldest first), so a lookup's candidates come out in a stable order.
 */
final class FlowTable {
  private static final Comparator<StoredFlow> ORDER =
      Comparator.<StoredFlow>comparingInt(f -> -f.entry.priority())
          .thenComparingLong(f -> f.sequence);

  private final List<StoredFlow> flows = new ArrayList<>();

  int size() {
    return flows.size();
  }

  List<StoredFlow> all() {
    return flows;
  }

  /** The entry with exactly this priority and match (OpenFlow's "identical" entry), or null. */
  StoredFlow identical(int priority, Match match) {
    for (StoredFlow f : flows) {
      if (f.entry.priority() == priority && f.entry.match().equals(match)) {
        return f;
      }
    }
    return null;
  }

  /** True if a same-priority entry could match a packet this match also matches. */
  boolean overlaps(int priority, Match match) {
    return flows.stream()
        .anyMatch(f -> f.entry.priority() == priority && f.entry.match().overlaps(match));
  }

  void insert(StoredFlow f) {
    int i = 0;
    while (i < flows.size() && ORDER.compare(flows.get(i), f) < 0) {
      i++;
    }
    flows.add(i, f);
  }

  /** Removes and returns the entries the predicate selects. */
  List<StoredFlow> removeIf(Predicate<StoredFlow> which) {
    List<StoredFlow> removed = new ArrayList<>();
    flows.removeIf(
        f -> {
          if (which.test(f)) {
            removed.add(f);
            return true;
          }
          return false;
        });
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
