package org.netpubsub.network.invariants;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.MaskedIpv6;

/**
 * A set of IPv6 destinations as a product of per-segment value sets: the address is cut into
 * segments (bit ranges, at most 64 bits) such that every mask the tables hold is, within each
 * segment, all ones then all zeros ({@link #segments}: a segment starts where a mask's run of ones
 * does), so a field is an interval per segment. For the Camus pipeline's query addresses the
 * segments are the query fields (a range's TCAM prefixes are intervals of its field), so the values
 * a field table tells apart are one box each, and what none of them holds is one box too: the
 * classes per query field. Immutable.
 */
final class Box {
  private final int[]
      starts; // segment i is bits [starts[i], starts[i + 1]), 0 the most significant
  private final long[][] sets; // per segment, sorted disjoint unsigned [lo, hi] pairs, non-empty
  private int hash; // 0: not computed yet

  private Box(int[] starts, long[][] sets) {
    this.starts = starts;
    this.sets = sets;
  }

  /** The segment starts for these masks (and 128 at the end). */
  static int[] segments(Iterable<Ipv6Address> masks) {
    TreeSet<Integer> s = new TreeSet<>(List.of(0, 64, 128));
    for (Ipv6Address m : masks) {
      for (int b = 1; b < 128; b++) {
        if (bit(m, b) && !bit(m, b - 1)) {
          s.add(b);
        }
      }
    }
    return s.stream().mapToInt(Integer::intValue).toArray();
  }

  private static boolean bit(Ipv6Address a, int b) {
    return b < 64 ? (a.high() >>> (63 - b) & 1) != 0 : (a.low() >>> (127 - b) & 1) != 0;
  }

  private int width(int i) {
    return starts[i + 1] - starts[i];
  }

  /** The bits of segment i of an address, as an unsigned value. */
  private long segment(Ipv6Address a, int i) {
    int from = starts[i];
    int w = width(i);
    long v;
    if (from < 64) {
      // segments never cross bit 64
      v = a.high() >>> (64 - from - w);
    } else {
      v = a.low() >>> (128 - from - w);
    }
    return w == 64 ? v : v & ((1L << w) - 1);
  }

  /** A field's interval in segment i, or null when it leaves the segment free. */
  private long[] interval(MaskedIpv6 f, int i) {
    long m = segment(f.mask(), i);
    if (m == 0) {
      return null;
    }
    long lo = segment(f.value(), i);
    long all = width(i) == 64 ? -1L : (1L << width(i)) - 1;
    return new long[] {lo, lo | (~m & all)}; // the mask is ones then zeros here
  }

  /** The field as a box (every mask of the walk's tables in {@code starts}). */
  static Box of(MaskedIpv6 f, int[] starts) {
    long[][] sets = new long[starts.length - 1][];
    Box b = new Box(starts, sets);
    for (int i = 0; i < sets.length; i++) {
      long[] iv = b.interval(f, i);
      long all = b.width(i) == 64 ? -1L : (1L << b.width(i)) - 1;
      sets[i] = iv == null ? new long[] {0, all} : iv;
    }
    return b;
  }

  /** The least address inside: the one a pipeline run takes for the box. */
  Ipv6Address representative() {
    long hi = 0;
    long lo = 0;
    for (int i = 0; i < sets.length; i++) {
      int w = width(i);
      int from = starts[i];
      long v = sets[i][0];
      if (from < 64) {
        hi |= w == 64 ? v : v << (64 - from - w);
      } else {
        lo |= w == 64 ? v : v << (128 - from - w);
      }
    }
    return new Ipv6Address(hi, lo);
  }

  boolean contains(Ipv6Address a) {
    for (int i = 0; i < sets.length; i++) {
      if (!in(sets[i], segment(a, i))) {
        return false;
      }
    }
    return true;
  }

  /** Whether every address of {@code b} is inside (both of the same segments). */
  boolean covers(Box b) {
    for (int i = 0; i < sets.length; i++) {
      long[] outer = sets[i];
      long[] inner = b.sets[i];
      int k = 0;
      for (int j = 0; j < inner.length; j += 2) {
        while (k < outer.length && Long.compareUnsigned(outer[k + 1], inner[j]) < 0) {
          k += 2;
        }
        if (k == outer.length
            || !inside(inner[j], outer[k], outer[k + 1])
            || !inside(inner[j + 1], outer[k], outer[k + 1])) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether some address is in both (both of the same segments). */
  boolean meets(Box b) {
    for (int i = 0; i < sets.length; i++) {
      if (!meets(sets[i], b.sets[i])) {
        return false;
      }
    }
    return true;
  }

  /** The addresses in both, or null when they share none (both of the same segments). */
  Box intersect(Box b) {
    long[][] s = new long[sets.length][];
    for (int i = 0; i < sets.length; i++) {
      long[] out = new long[sets[i].length + b.sets[i].length];
      int n = 0;
      for (int k = 0; k < b.sets[i].length; k += 2) {
        long[] part = intersect(sets[i], b.sets[i][k], b.sets[i][k + 1]);
        System.arraycopy(part, 0, out, n, part.length);
        n += part.length;
      }
      if (n == 0) {
        return null;
      }
      s[i] = Arrays.copyOf(out, n); // b's intervals are sorted and disjoint, so these are too
    }
    return new Box(starts, s);
  }

  private static boolean meets(long[] a, long[] b) {
    int i = 0;
    int j = 0;
    while (i < a.length && j < b.length) {
      if (Long.compareUnsigned(a[i + 1], b[j]) < 0) {
        i += 2;
      } else if (Long.compareUnsigned(b[j + 1], a[i]) < 0) {
        j += 2;
      } else {
        return true;
      }
    }
    return false;
  }

  /** Whether some address is in both. */
  boolean overlaps(MaskedIpv6 f) {
    for (int i = 0; i < sets.length; i++) {
      long[] iv = interval(f, i);
      if (iv != null && intersect(sets[i], iv[0], iv[1]).length == 0) {
        return false;
      }
    }
    return true;
  }

  /** Whether every address inside has the same bits under {@code mask}. */
  boolean fixes(Ipv6Address mask) {
    for (int i = 0; i < sets.length; i++) {
      long m = segment(mask, i);
      long[] s = sets[i];
      if (m != 0 && (s[0] ^ s[s.length - 1]) != 0) {
        long differ = Long.highestOneBit(s[0] ^ s[s.length - 1]);
        if (Long.compareUnsigned(m & -m, differ) <= 0) {
          return false; // the mask has a bit at or below the highest bit the values differ in
        }
      }
    }
    return true;
  }

  /** With segment i's set replaced. */
  private Box with(int i, long[] set) {
    long[][] s = sets.clone();
    s[i] = set;
    return new Box(starts, s);
  }

  /** The field as a box of this box's segments. */
  Box shaped(MaskedIpv6 f) {
    return of(f, starts);
  }

  /**
   * The addresses in either, when that is a box (the two equal in every segment but one, whose sets
   * are joined); else null. A range's TCAM prefixes under one field table are such boxes, so their
   * union is one box: a lookup cuts a region per range, not per prefix.
   */
  Box unionWith(Box b) {
    int differ = -1;
    for (int i = 0; i < sets.length; i++) {
      if (!Arrays.equals(sets[i], b.sets[i])) {
        if (differ >= 0) {
          return null;
        }
        differ = i;
      }
    }
    return differ < 0 ? this : with(differ, join(sets[differ], b.sets[differ]));
  }

  /** Two sorted disjoint interval sets joined, touching intervals merged (one form per set). */
  private static long[] join(long[] a, long[] b) {
    long[] all = new long[a.length + b.length];
    int i = 0;
    int j = 0;
    int n = 0;
    while (i < a.length || j < b.length) {
      long lo;
      long hi;
      if (j == b.length || (i < a.length && Long.compareUnsigned(a[i], b[j]) <= 0)) {
        lo = a[i];
        hi = a[i + 1];
        i += 2;
      } else {
        lo = b[j];
        hi = b[j + 1];
        j += 2;
      }
      if (n > 0 && (all[n - 1] == -1L || Long.compareUnsigned(lo, all[n - 1] + 1) <= 0)) {
        if (Long.compareUnsigned(hi, all[n - 1]) > 0) {
          all[n - 1] = hi;
        }
      } else {
        all[n++] = lo;
        all[n++] = hi;
      }
    }
    return Arrays.copyOf(all, n);
  }

  /**
   * The part inside {@code u} (which holds the representative) and the parts cut off, disjoint:
   * element 0 is the part kept. Each cut off is where a segment's set leaves {@code u}'s, the
   * segments before it kept inside.
   */
  List<Box> into(Box u) {
    List<Box> out = new ArrayList<>();
    out.add(null);
    Box kept = this;
    for (int i = 0; i < sets.length; i++) {
      long[] outside = subtract(kept.sets[i], u.sets[i]);
      if (outside.length > 0) {
        out.add(kept.with(i, outside));
        kept = kept.with(i, intersect(kept.sets[i], u.sets[i]));
      }
    }
    out.set(0, kept);
    return out;
  }

  /**
   * The part outside {@code u} (which does not hold the representative) and the part cut off:
   * element 0 is the part kept: cut at the first segment whose value in the representative {@code
   * u} does not hold.
   */
  List<Box> outOf(Box u) {
    Ipv6Address r = representative();
    for (int i = 0; i < sets.length; i++) {
      if (!in(u.sets[i], segment(r, i))) {
        long[] inU = intersect(sets[i], u.sets[i]);
        return inU.length == 0
            ? List.of(this)
            : List.of(with(i, subtract(sets[i], u.sets[i])), with(i, inU));
      }
    }
    throw new IllegalArgumentException("the representative is inside " + u);
  }

  private static long[] intersect(long[] set, long[] by) {
    long[] out = new long[set.length + by.length];
    int n = 0;
    for (int k = 0; k < by.length; k += 2) {
      long[] part = intersect(set, by[k], by[k + 1]);
      System.arraycopy(part, 0, out, n, part.length);
      n += part.length;
    }
    return Arrays.copyOf(out, n);
  }

  private static long[] subtract(long[] set, long[] by) {
    long[] out = set;
    for (int k = 0; k < by.length && out.length > 0; k += 2) {
      out = subtract(out, by[k], by[k + 1]);
    }
    return out;
  }

  private static boolean inside(long v, long lo, long hi) {
    return Long.compareUnsigned(v, lo) >= 0 && Long.compareUnsigned(v, hi) <= 0;
  }

  private static boolean in(long[] set, long v) {
    for (int k = 0; k < set.length; k += 2) {
      if (inside(v, set[k], set[k + 1])) {
        return true;
      }
    }
    return false;
  }

  private static long[] intersect(long[] set, long lo, long hi) {
    long[] out = new long[set.length];
    int n = 0;
    for (int k = 0; k < set.length; k += 2) {
      long a = Long.compareUnsigned(set[k], lo) > 0 ? set[k] : lo;
      long b = Long.compareUnsigned(set[k + 1], hi) < 0 ? set[k + 1] : hi;
      if (Long.compareUnsigned(a, b) <= 0) {
        out[n++] = a;
        out[n++] = b;
      }
    }
    return Arrays.copyOf(out, n);
  }

  private static long[] subtract(long[] set, long lo, long hi) {
    long[] out = new long[set.length + 2];
    int n = 0;
    for (int k = 0; k < set.length; k += 2) {
      long a = set[k];
      long b = set[k + 1];
      if (Long.compareUnsigned(b, lo) < 0 || Long.compareUnsigned(a, hi) > 0) {
        out[n++] = a;
        out[n++] = b;
        continue;
      }
      if (Long.compareUnsigned(a, lo) < 0) {
        out[n++] = a;
        out[n++] = lo - 1;
      }
      if (Long.compareUnsigned(b, hi) > 0) {
        out[n++] = hi + 1;
        out[n++] = b;
      }
    }
    return Arrays.copyOf(out, n);
  }

  @Override
  public boolean equals(Object o) {
    return o == this
        || (o instanceof Box b
            && b.hashCode() == hashCode()
            && Arrays.deepEquals(sets, b.sets)
            && Arrays.equals(starts, b.starts));
  }

  @Override
  public int hashCode() {
    int h = hash;
    if (h == 0) {
      // mixed, not Arrays.deepHashCode: a cut's parts differ in a few low bits of one segment,
      // and 31-polynomial hashes of such arrays collide into the same buckets
      long x = 0;
      for (long[] set : sets) {
        for (long v : set) {
          x = (x ^ v) * 0x9E3779B97F4A7C15L;
          x ^= x >>> 29;
        }
        x = (x + set.length) * 0xC2B2AE3D27D4EB4FL;
      }
      h = (int) (x ^ (x >>> 32));
      hash = h == 0 ? 1 : h; // a box is a key of the walk's sets and maps, hashed at every look-up
    }
    return hash;
  }

  /** Per segment, hex: a value, {@code lo-hi} ranges, or {@code *} for all of it. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < sets.length; i++) {
      long all = width(i) == 64 ? -1L : (1L << width(i)) - 1;
      long[] s = sets[i];
      sb.append(i == 0 ? "" : " ").append(starts[i]).append(':');
      if (s.length == 2 && s[0] == 0 && s[1] == all) {
        sb.append('*');
        continue;
      }
      for (int k = 0; k < s.length; k += 2) {
        sb.append(k == 0 ? "" : ",").append(Long.toHexString(s[k]));
        if (s[k] != s[k + 1]) {
          sb.append('-').append(Long.toHexString(s[k + 1]));
        }
      }
    }
    return sb.toString();
  }
}
