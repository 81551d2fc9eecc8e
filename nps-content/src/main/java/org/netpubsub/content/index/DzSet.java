package org.netpubsub.content.index;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;

/**
 * A set of dz-expressions (the paper's DZ) in normal form: sorted, an antichain (no member covers
 * another) and with no two siblings (x0 and x1 become x). Two sets naming the same points are
 * equal. Immutable.
 */
public final class DzSet implements Iterable<Dz> {
  public static final DzSet EMPTY = new DzSet(new Dz[0]);

  /** The whole event space: {ε}. */
  public static final DzSet ALL = new DzSet(new Dz[] {Dz.EMPTY});

  private final Dz[] members;

  private DzSet(Dz[] normalized) {
    this.members = normalized;
  }

  public static DzSet of(Dz... dzs) {
    return new DzSet(normalize(dzs.clone()));
  }

  public static DzSet of(Collection<Dz> dzs) {
    return new DzSet(normalize(dzs.toArray(new Dz[0])));
  }

  public int size() {
    return members.length;
  }

  public boolean isEmpty() {
    return members.length == 0;
  }

  public Dz get(int i) {
    return members[i];
  }

  /** The members in order. */
  public List<Dz> members() {
    return List.of(members);
  }

  @Override
  public Iterator<Dz> iterator() {
    return members().iterator();
  }

  /** The length of the longest member, 0 when empty. */
  public int maxLength() {
    int m = 0;
    for (Dz d : members) {
      m = Math.max(m, d.length());
    }
    return m;
  }

  public DzSet union(DzSet other) {
    Dz[] all = Arrays.copyOf(members, members.length + other.members.length);
    System.arraycopy(other.members, 0, all, members.length, other.members.length);
    return new DzSet(normalize(all));
  }

  /** The points in both sets: for each overlapping pair, the longer dz. */
  public DzSet intersect(DzSet other) {
    // the whole space (an advertisement of everything, the common case) changes nothing
    if (isEverything()) {
      return other;
    }
    if (other.isEverything()) {
      return this;
    }
    // a single dz covering the other set (a partition's advertisement, say) changes nothing either
    if (coversAll(other)) {
      return other;
    }
    if (other.coversAll(this)) {
      return this;
    }
    List<Dz> out = new ArrayList<>();
    for (Dz a : members) {
      int i = other.floor(a);
      if (i >= 0 && other.members[i].covers(a)) {
        out.add(a);
        continue;
      }
      // The members of other that a covers follow a contiguously in sort order.
      for (int j = i + 1; j < other.members.length && a.covers(other.members[j]); j++) {
        out.add(other.members[j]);
      }
    }
    return of(out);
  }

  /**
   * Whether this is one dz covering every member of {@code other}: the dzs a dz covers are
   * contiguous in sort order, so covering the first and the last member covers them all.
   */
  private boolean coversAll(DzSet other) {
    return members.length == 1
        && other.members.length > 0
        && members[0].covers(other.members[0])
        && members[0].covers(other.members[other.members.length - 1]);
  }

  private boolean isEverything() {
    return members.length == 1 && members[0].isEmpty();
  }

  /** Whether some member covers {@code dz} (for an event's dz: whether the set matches it). */
  public boolean covers(Dz dz) {
    int i = floor(dz);
    return i >= 0 && members[i].covers(dz);
  }

  /** The fraction of the index space the set covers: Σ 2^−|dz|. */
  public double volume() {
    double v = 0;
    for (Dz d : members) {
      v += Math.scalb(1.0, -d.length());
    }
    return v;
  }

  /**
   * A superset with at most {@code maxSize} members: cuts every member longer than t bits to its
   * first t bits, for the largest t that fits. This is what repeatedly cutting the longest members
   * by one bit gives (each cut doubles their subspace, never drops a point), found by binary search
   * because the size only shrinks as t does.
   */
  public DzSet coarsen(int maxSize) {
    if (maxSize < 1) {
      throw new IllegalArgumentException("maxSize must be at least 1, got " + maxSize);
    }
    if (members.length <= maxSize) {
      return this;
    }
    int lo = 0; // truncating to 0 bits gives {ε}, which always fits
    int hi = maxLength() - 1;
    Dz[] best = ALL.members;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      Dz[] cut = truncate(mid);
      if (cut.length <= maxSize) {
        lo = mid;
        best = cut;
      } else {
        hi = mid - 1;
      }
    }
    return new DzSet(best); // best is the cut at lo (ε when nothing longer fits)
  }

  /** The members cut to at most {@code t} bits, normalized. */
  private Dz[] truncate(int t) {
    Dz[] cut = new Dz[members.length];
    for (int i = 0; i < members.length; i++) {
      cut[i] = members[i].length() > t ? members[i].prefix(t) : members[i];
    }
    return normalize(cut);
  }

  /** Index of the greatest member ≤ dz, or -1. */
  private int floor(Dz dz) {
    int i = Arrays.binarySearch(members, dz);
    return i >= 0 ? i : -i - 2;
  }

  /**
   * Sorts, drops covered members and merges siblings, in one pass over a stack. In sort order a
   * member that covers dz is the last kept one, and a merged parent can only merge further with the
   * kept member just below it.
   */
  private static Dz[] normalize(Dz[] dzs) {
    Arrays.sort(dzs);
    Dz[] stack = new Dz[dzs.length];
    int top = 0;
    for (Dz d : dzs) {
      if (top > 0 && stack[top - 1].covers(d)) {
        continue;
      }
      Dz cur = d;
      while (top > 0 && cur.length() > 0 && stack[top - 1].equals(cur.sibling())) {
        top--;
        cur = cur.prefix(cur.length() - 1);
      }
      stack[top++] = cur;
    }
    return Arrays.copyOf(stack, top);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DzSet s && Arrays.equals(s.members, members);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(members);
  }

  /** The members in braces, e.g. {@code {100, 110}}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("{");
    for (int i = 0; i < members.length; i++) {
      sb.append(i == 0 ? "" : ", ").append(members[i]);
    }
    return sb.append('}').toString();
  }
}
