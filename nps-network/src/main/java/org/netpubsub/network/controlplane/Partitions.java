package org.netpubsub.network.controlplane;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;

/**
 * A cut of the event space into disjoint partitions that together cover it (PLEROMA §IV-A), each a
 * dz. A request's cell either lies inside one partition or covers several whole partitions; {@link
 * #split} cuts a request's cells accordingly, so that every part concerns one partition only (the
 * paper's {@code {00} → {000, 0010, 0011}}).
 */
public final class Partitions {
  /** Enough for any experiment; more would only make every coarse request split further. */
  public static final int MAX_PARTITIONS = 1 << 16;

  private final List<Dz> partitions;
  private final Set<Dz> members;
  private final SortedSet<Integer> lengths = new TreeSet<>();

  private Partitions(Collection<Dz> dzs) {
    List<Dz> sorted = new ArrayList<>(new TreeSet<>(dzs));
    if (sorted.isEmpty() || sorted.size() > MAX_PARTITIONS) {
      throw new IllegalArgumentException(
          "between 1 and " + MAX_PARTITIONS + " partitions are needed, not " + sorted.size());
    }
    double volume = 0;
    for (int i = 0; i < sorted.size(); i++) {
      Dz p = sorted.get(i);
      // Sorted order puts a prefix right before its extensions: only neighbours can overlap.
      if (i > 0 && sorted.get(i - 1).overlaps(p)) {
        throw new IllegalArgumentException(
            "partitions " + sorted.get(i - 1) + " and " + p + " overlap");
      }
      volume += Math.scalb(1.0, -p.length());
      lengths.add(p.length());
    }
    if (Math.abs(volume - 1.0) > 1e-12) {
      throw new IllegalArgumentException("the partitions do not cover the event space");
    }
    this.partitions = Collections.unmodifiableList(sorted);
    this.members = new HashSet<>(sorted);
  }

  /** {@code k} equal partitions: every dz of length log2(k); k must be a power of two. */
  public static Partitions uniform(int k) {
    if (k < 1 || k > MAX_PARTITIONS || Integer.bitCount(k) != 1) {
      throw new IllegalArgumentException(
          "the number of partitions must be a power of two from 1 to " + MAX_PARTITIONS + ": " + k);
    }
    int depth = Integer.numberOfTrailingZeros(k);
    List<Dz> out = new ArrayList<>(k);
    for (int i = 0; i < k; i++) {
      Dz dz = Dz.EMPTY;
      for (int b = depth - 1; b >= 0; b--) {
        dz = dz.append((i >>> b) & 1);
      }
      out.add(dz);
    }
    return new Partitions(out);
  }

  /** Arbitrary partitions (unequal sizes allowed); they must be disjoint and cover everything. */
  public static Partitions of(Collection<Dz> dzs) {
    return new Partitions(dzs);
  }

  /** The partitions in dz order. */
  public List<Dz> all() {
    return partitions;
  }

  public int size() {
    return partitions.size();
  }

  /** The partition a cell lies in, or null when the cell covers several partitions. */
  public Dz containing(Dz cell) {
    for (int length : lengths) {
      if (length > cell.length()) {
        break;
      }
      Dz p = cell.prefix(length);
      if (members.contains(p)) {
        return p;
      }
    }
    return null;
  }

  /**
   * The request's cells per partition they touch: a cell inside a partition stays as it is, a cell
   * covering several partitions becomes those partitions. The union of the parts equals the cells.
   */
  public SortedMap<Dz, DzSet> split(DzSet cells) {
    SortedMap<Dz, List<Dz>> parts = new TreeMap<>();
    for (Dz cell : cells) {
      Dz p = containing(cell);
      if (p != null) {
        parts.computeIfAbsent(p, x -> new ArrayList<>()).add(cell);
      } else {
        for (Dz q : partitions) {
          if (cell.covers(q)) {
            parts.computeIfAbsent(q, x -> new ArrayList<>()).add(q);
          }
        }
      }
    }
    SortedMap<Dz, DzSet> out = new TreeMap<>();
    parts.forEach((p, list) -> out.put(p, DzSet.of(list)));
    return out;
  }
}
