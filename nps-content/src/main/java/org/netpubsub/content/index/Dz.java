package org.netpubsub.content.index;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A dz-expression (PLEROMA §III-A): a bit string of length 0..{@value #MAX_LENGTH} naming a
 * subspace of the event space; each bit halves the subspace of its prefix. Immutable.
 *
 * <p>Stored left-aligned in two longs: bit 0 is the most significant bit of {@code hi}, bit 64 the
 * most significant bit of {@code lo}; bits at and beyond {@link #length()} are zero. 112 bits is
 * what an IPv6 address holds after the {@code ff0e::/16} prefix (see {@link ContentAddress}).
 */
public final class Dz implements Comparable<Dz> {
  /** The longest dz: 128 address bits minus the 16 bits of {@code ff0e::/16}. */
  public static final int MAX_LENGTH = 112;

  /** The empty dz (ε): the whole event space. */
  public static final Dz EMPTY = new Dz(0, 0, 0);

  private final long hi;
  private final long lo;
  private final int length;

  private Dz(long hi, long lo, int length) {
    this.hi = hi;
    this.lo = lo;
    this.length = length;
  }

  /** The dz of the first {@code length} bits of {@code hi} and {@code lo}; later bits ignored. */
  static Dz of(long hi, long lo, int length) {
    if (length < 0 || length > MAX_LENGTH) {
      throw new IllegalArgumentException("dz length " + length + " is outside 0.." + MAX_LENGTH);
    }
    return length == 0 ? EMPTY : new Dz(hi & maskHi(length), lo & maskLo(length), length);
  }

  /**
   * Parses a string of {@code 0} and {@code 1}; the empty string and {@code ε} are the empty dz.
   */
  public static Dz parse(String bits) {
    if (bits.equals("ε")) {
      return EMPTY;
    }
    if (bits.length() > MAX_LENGTH) {
      throw new IllegalArgumentException(
          "a dz has at most " + MAX_LENGTH + " bits, got " + bits.length());
    }
    long h = 0;
    long l = 0;
    for (int i = 0; i < bits.length(); i++) {
      char c = bits.charAt(i);
      if (c != '0' && c != '1') {
        throw new IllegalArgumentException(
            "a dz is written in 0 and 1, got '" + c + "' in \"" + bits + "\"");
      }
      if (c == '1') {
        if (i < 64) {
          h |= 1L << (63 - i);
        } else {
          l |= 1L << (127 - i);
        }
      }
    }
    return of(h, l, bits.length());
  }

  public int length() {
    return length;
  }

  public boolean isEmpty() {
    return length == 0;
  }

  /** Bit {@code i} (0-based from the left): 0 or 1. */
  public int bit(int i) {
    if (i < 0 || i >= length) {
      throw new IndexOutOfBoundsException("bit " + i + " of a dz of length " + length);
    }
    return i < 64 ? (int) (hi >>> (63 - i)) & 1 : (int) (lo >>> (127 - i)) & 1;
  }

  /** This dz extended by one bit: the lower ({@code 0}) or upper ({@code 1}) half. */
  public Dz append(int bit) {
    if (bit != 0 && bit != 1) {
      throw new IllegalArgumentException("a bit is 0 or 1, got " + bit);
    }
    if (length == MAX_LENGTH) {
      throw new IllegalArgumentException("a dz has at most " + MAX_LENGTH + " bits");
    }
    if (bit == 0) {
      return new Dz(hi, lo, length + 1);
    }
    return length < 64
        ? new Dz(hi | 1L << (63 - length), lo, length + 1)
        : new Dz(hi, lo | 1L << (127 - length), length + 1);
  }

  /** The first {@code n} bits: the enclosing subspace at level {@code n}. */
  public Dz prefix(int n) {
    if (n < 0 || n > length) {
      throw new IllegalArgumentException("prefix " + n + " of a dz of length " + length);
    }
    return n == length ? this : of(hi, lo, n);
  }

  /** This dz with its last bit flipped: the other half of its parent. */
  Dz sibling() {
    if (length == 0) {
      throw new IllegalArgumentException("ε has no sibling");
    }
    int i = length - 1;
    return i < 64
        ? new Dz(hi ^ 1L << (63 - i), lo, length)
        : new Dz(hi, lo ^ 1L << (127 - i), length);
  }

  /** Whether this subspace contains {@code other}: this is a prefix of it (the paper's ≻). */
  public boolean covers(Dz other) {
    return length <= other.length
        && ((hi ^ other.hi) & maskHi(length)) == 0
        && ((lo ^ other.lo) & maskLo(length)) == 0;
  }

  /** Whether the two subspaces share a point: one covers the other. */
  public boolean overlaps(Dz other) {
    return covers(other) || other.covers(this);
  }

  /** The overlap of two subspaces: the longer dz when they overlap, else empty. */
  public Optional<Dz> intersection(Dz other) {
    if (covers(other)) {
      return Optional.of(other);
    }
    return other.covers(this) ? Optional.of(this) : Optional.empty();
  }

  /**
   * The part of this subspace outside {@code other}, as the minimal list of disjoint dz, sorted.
   * The paper's example {@code 0 − 000} gives {@code [001, 01]}; the paper writes {@code 001, 010,
   * 011}, which names the same points ({@code 01} = {@code 010} ∪ {@code 011}).
   */
  public List<Dz> difference(Dz other) {
    if (other.covers(this)) {
      return List.of();
    }
    if (!covers(other)) {
      return List.of(this);
    }
    // Walking from other up to this, each level contributes the sibling of other's ancestor.
    List<Dz> out = new ArrayList<>(other.length - length);
    for (int n = other.length; n > length; n--) {
      out.add(other.prefix(n).sibling());
    }
    out.sort(null);
    return List.copyOf(out);
  }

  /** The bits as a string of 0 and 1 ("" for ε). */
  public String bits() {
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      sb.append((char) ('0' + bit(i)));
    }
    return sb.toString();
  }

  /** The left-aligned first 64 bits (zero past the length). */
  public long hi() {
    return hi;
  }

  /** The left-aligned bits 64..111, in the top 48 bits (zero past the length). */
  public long lo() {
    return lo;
  }

  /** Lexicographic order of the bit strings; a prefix comes before its extensions. */
  @Override
  public int compareTo(Dz o) {
    int c = Long.compareUnsigned(hi, o.hi);
    if (c != 0) {
      return c;
    }
    c = Long.compareUnsigned(lo, o.lo);
    // Bits past the length are zero, so equal words mean one is a prefix of the other.
    return c != 0 ? c : Integer.compare(length, o.length);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Dz d && d.hi == hi && d.lo == lo && d.length == length;
  }

  @Override
  public int hashCode() {
    // A dz keeps its bits at the top of hi with zeros below, so a plain sum of the words crowded
    // coarse cells into a few hash buckets; MurmurHash3's finaliser spreads the top bits down.
    long h = hi ^ Long.rotateLeft(lo, 32) ^ length;
    h = (h ^ (h >>> 33)) * 0xff51afd7ed558ccdL;
    h = (h ^ (h >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return (int) (h ^ (h >>> 33));
  }

  /** The bits, or {@code ε} for the empty dz. */
  @Override
  public String toString() {
    return length == 0 ? "ε" : bits();
  }

  /** The bits of {@link #hi} a dz of this length uses (for tries that keep bits inline). */
  public static long maskHi(int length) {
    return length >= 64 ? -1L : length == 0 ? 0 : -1L << (64 - length);
  }

  /** The bits of {@link #lo} a dz of this length uses. */
  public static long maskLo(int length) {
    return length <= 64 ? 0 : -1L << (128 - length);
  }
}
