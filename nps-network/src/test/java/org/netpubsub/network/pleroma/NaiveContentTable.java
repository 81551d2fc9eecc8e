package org.netpubsub.network.pleroma;

import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.content.index.Dz;

/** The naive twin of {@link ContentTable}: the whole table recomputed from the requirements. */
final class NaiveContentTable {
  private NaiveContentTable() {}

  /** Requirements dz → egresses (multiplicity does not matter) to the flows a table should hold. */
  static SortedMap<Dz, SortedSet<EventEgress>> flows(Map<Dz, ? extends Iterable<EventEgress>> req) {
    SortedMap<Dz, SortedSet<EventEgress>> out = new TreeMap<>();
    for (Dz d : req.keySet()) {
      SortedSet<EventEgress> full = fullAt(req, d, d.length());
      SortedSet<EventEgress> coarser = new TreeSet<>();
      for (int n = d.length() - 1; n >= 0; n--) {
        if (req.containsKey(d.prefix(n))) {
          coarser = fullAt(req, d, n);
          break;
        }
      }
      if (!full.equals(coarser) && !full.isEmpty()) {
        out.put(d, full);
      }
    }
    return out;
  }

  /** Everything required for prefixes of d up to length n. */
  static SortedSet<EventEgress> fullAt(Map<Dz, ? extends Iterable<EventEgress>> req, Dz d, int n) {
    SortedSet<EventEgress> out = new TreeSet<>();
    for (int i = 0; i <= n; i++) {
      Iterable<EventEgress> e = req.get(d.prefix(i));
      if (e != null) {
        e.forEach(out::add);
      }
    }
    return out;
  }
}
