package org.netpubsub.content.schema;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a string index dimension maps values to unsigned offsets {@code 0 .. sizeMinus1}: the codes
 * the dz bits refine (docs/content-model.md, "Index layouts"). Every coding is a function of the
 * value alone, and a filter's accepted ranges are computed with the same function, so a cover is a
 * superset of the matching events whatever the coding.
 */
public sealed interface StringCoding {
  /** Dictionaries hold at most this many values (they are published with the index). */
  int MAX_DICTIONARY = 4096;

  /** Topic codings have at most this many levels. */
  int MAX_LEVELS = 16;

  /** A topic filter's {@code +} levels are enumerated up to this many ranges. */
  int MAX_RANGES = 4096;

  /** The number of offsets minus one (unsigned: -1 is 2^64). */
  long sizeMinus1(StringAttribute a);

  /** The offset of {@code value}. */
  long offset(StringAttribute a, String value);

  /**
   * The offsets of the values that start with {@code prefix}, as ascending disjoint inclusive
   * intervals {@code {lo0, hi0, lo1, hi1, …}} (a superset; the whole dimension when the coding
   * keeps no order).
   */
  long[] prefixRanges(StringAttribute a, String prefix);

  /**
   * The offsets of the topic names an MQTT topic filter matches ({@link Topics#matches}), as {@link
   * #prefixRanges}: a superset. By default the names starting with the filter's levels before its
   * first wildcard (all names when the first level is one).
   */
  default long[] patternRanges(StringAttribute a, String filter) {
    if (!Topics.hasWildcard(filter)) {
      long v = offset(a, filter);
      return new long[] {v, v};
    }
    String[] levels = filter.split("/", -1);
    int literal = 0;
    while (!levels[literal].equals("+") && !levels[literal].equals("#")) {
      literal++;
    }
    return literal == 0
        ? new long[] {0, sizeMinus1(a)}
        : prefixRanges(a, String.join("/", java.util.Arrays.copyOf(levels, literal)));
  }

  /** The kind as published: ordered, hash, dictionary or topic. */
  String kind();

  /**
   * Order-preserving: the UTF-8 bytes, zero-padded, read as one bit string; the leading bits equal
   * to {@code commonBits} (which the values seen share) are skipped and the next min(64, 8 ·
   * max_length − |commonBits|) bits are the offset. A value below the common bits clamps to 0,
   * above to the last offset: order is kept, so a prefix is one range. {@code ""} is the default
   * coding (the first 8 bytes).
   */
  record Ordered(String commonBits) implements StringCoding {
    public static final Ordered DEFAULT = new Ordered("");

    public Ordered {
      if (!commonBits.matches("[01]*")) {
        throw new IllegalArgumentException(
            "common_bits must be 0s and 1s, got '" + commonBits + "'");
      }
    }

    int width(StringAttribute a) {
      return (int) Math.min(64, 8L * a.maxLength() - commonBits.length());
    }

    @Override
    public long sizeMinus1(StringAttribute a) {
      int w = width(a);
      return w == 64 ? -1L : (1L << w) - 1;
    }

    @Override
    public long offset(StringAttribute a, String value) {
      return offset(a, value.getBytes(StandardCharsets.UTF_8), 0);
    }

    private long offset(StringAttribute a, byte[] bytes, int pad) {
      int skip = commonBits.length();
      for (int i = 0; i < skip; i++) {
        int c = bit(bytes, i, pad) - (commonBits.charAt(i) - '0');
        if (c != 0) {
          return c < 0 ? 0 : sizeMinus1(a);
        }
      }
      long v = 0;
      for (int i = 0, w = width(a); i < w; i++) {
        v = v << 1 | bit(bytes, skip + i, pad);
      }
      return v;
    }

    @Override
    public long[] prefixRanges(StringAttribute a, String prefix) {
      byte[] p = prefix.getBytes(StandardCharsets.UTF_8);
      return new long[] {offset(a, p, 0), offset(a, p, 0xff)};
    }

    @Override
    public String kind() {
      return "ordered";
    }

    private static int bit(byte[] bytes, int i, int pad) {
      int b = i >> 3 < bytes.length ? bytes[i >> 3] & 0xff : pad;
      return b >> (7 - (i & 7)) & 1;
    }
  }

  /**
   * A 64-bit hash of the UTF-8 bytes (FNV-1a, then MurmurHash3's fmix64 so that the top bits mix
   * every byte): values spread evenly over the cells, so equality is one point whatever the values
   * share, but a prefix is the whole dimension. For attributes compared with == and !=.
   */
  record Hash() implements StringCoding {
    @Override
    public long sizeMinus1(StringAttribute a) {
      return -1L;
    }

    @Override
    public long offset(StringAttribute a, String value) {
      return hash(value);
    }

    @Override
    public long[] prefixRanges(StringAttribute a, String prefix) {
      return new long[] {0, -1L};
    }

    @Override
    public String kind() {
      return "hash";
    }
  }

  /**
   * An explicit dictionary: value i of the values sorted by UTF-8 bytes has offset i, every other
   * value offset n (the "other" cell). Sorted, so the members with a prefix are one range (plus
   * "other").
   */
  record Dictionary(List<String> values) implements StringCoding {
    public Dictionary {
      values = List.copyOf(values);
      if (values.size() > MAX_DICTIONARY) {
        throw new IllegalArgumentException(
            "values: " + values.size() + " values, at most " + MAX_DICTIONARY);
      }
      for (int i = 1; i < values.size(); i++) {
        if (compareBytes(values.get(i - 1), values.get(i)) >= 0) {
          throw new IllegalArgumentException(
              "values must be distinct and sorted by UTF-8 bytes: '"
                  + values.get(i - 1)
                  + "' before '"
                  + values.get(i)
                  + "'");
        }
      }
    }

    /** The dictionary of {@code values} in any order, duplicates dropped. */
    public static Dictionary of(java.util.Collection<String> values) {
      String[] v = values.stream().distinct().toArray(String[]::new);
      Arrays.sort(v, StringCoding::compareBytes);
      return new Dictionary(List.of(v));
    }

    @Override
    public long sizeMinus1(StringAttribute a) {
      return values.size();
    }

    @Override
    public long offset(StringAttribute a, String value) {
      int i = java.util.Collections.binarySearch(values, value, StringCoding::compareBytes);
      return i >= 0 ? i : values.size();
    }

    @Override
    public long[] prefixRanges(StringAttribute a, String prefix) {
      int first = -1;
      int last = -1;
      for (int i = 0; i < values.size(); i++) {
        if (values.get(i).startsWith(prefix)) {
          first = first < 0 ? i : first;
          last = i;
        }
      }
      long other = values.size();
      return first < 0 ? new long[] {other, other} : new long[] {first, last, other, other};
    }

    /** The members the filter matches, as runs, and "other". */
    @Override
    public long[] patternRanges(StringAttribute a, String filter) {
      List<Long> out = new ArrayList<>();
      for (int i = 0; i < values.size(); i++) {
        if (Topics.matches(filter, values.get(i))) {
          if (!out.isEmpty() && out.getLast() == i - 1) {
            out.set(out.size() - 1, (long) i);
          } else {
            out.add((long) i);
            out.add((long) i);
          }
        }
      }
      out.add((long) values.size());
      out.add((long) values.size());
      return out.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public String kind() {
      return "dictionary";
    }
  }

  /**
   * A hierarchical topic {@code a/b/c}: the levels (split at '/') are coded in {@code levelOrder}
   * (a permutation of 0..n−1; default 0, 1, …), the i-th coded level in {@code levelBits[i]} bits:
   * with an empty {@code levelValues[i]} the top bits of its hash (absent levels 0); with a
   * dictionary (sorted by UTF-8 bytes; {@code ""} stands for an absent level, which no topic has
   * empty) the value's index, and every other value the escape code n, clamped to 2^bits − 1.
   * Levels past the last coded one are ignored. A prefix of whole levels ({@code a/b/}, MQTT's
   * {@code a/b/#}) fixes those levels' bits; a {@code +} level frees its bits (a dictionary level:
   * only its codes of present values). Free bits after every fixed one cost nothing (one range);
   * free bits before a fixed one multiply the ranges, so a learner puts the levels filters leave
   * free last and gives dictionaries no spare bits.
   */
  record Topic(List<Integer> levelBits, List<Integer> levelOrder, List<List<String>> levelValues)
      implements StringCoding {
    public Topic {
      levelBits = List.copyOf(levelBits);
      levelOrder = List.copyOf(levelOrder);
      levelValues = levelValues.stream().map(List::copyOf).toList();
      if (levelBits.isEmpty() || levelBits.size() > MAX_LEVELS) {
        throw new IllegalArgumentException("level_bits: 1 to " + MAX_LEVELS + " levels");
      }
      int sum = 0;
      for (int b : levelBits) {
        if (b < 1 || b > 64) {
          throw new IllegalArgumentException("level_bits: " + b + " is outside 1..64");
        }
        sum += b;
      }
      if (sum > 64) {
        throw new IllegalArgumentException("level_bits: " + sum + " bits in all, at most 64");
      }
      if (!new java.util.TreeSet<>(levelOrder)
              .equals(new java.util.TreeSet<>(identity(levelBits.size())))
          || levelOrder.size() != levelBits.size()) {
        throw new IllegalArgumentException(
            "level_order: "
                + levelOrder
                + " is not an order of the levels 0.."
                + (levelBits.size() - 1));
      }
      checkLevelValues(levelValues, levelBits.size());
    }

    /** Every level hashed, in the given order. */
    public Topic(List<Integer> levelBits, List<Integer> levelOrder) {
      this(levelBits, levelOrder, List.of());
    }

    /** Levels hashed and coded in their own order. */
    public Topic(List<Integer> levelBits) {
      this(levelBits, identity(levelBits.size()));
    }

    private static void checkLevelValues(List<List<String>> values, int levels) {
      if (!values.isEmpty() && values.size() != levels) {
        throw new IllegalArgumentException(
            "level_values: " + values.size() + " lists for " + levels + " levels");
      }
      for (int i = 0; i < values.size(); i++) {
        List<String> v = values.get(i);
        String where = "level_values[" + i + "]: ";
        if (v.size() > MAX_DICTIONARY) {
          throw new IllegalArgumentException(
              where + v.size() + " values, at most " + MAX_DICTIONARY);
        }
        for (int k = 0; k < v.size(); k++) {
          String x = v.get(k);
          if (x.contains("/") || x.contains("+") || x.contains("#")) {
            throw new IllegalArgumentException(
                where + "'" + x + "' is not one level (it holds '/', '+' or '#')");
          }
          if (k > 0 && compareBytes(v.get(k - 1), x) >= 0) {
            throw new IllegalArgumentException(
                where
                    + "values must be distinct and sorted by UTF-8 bytes: '"
                    + v.get(k - 1)
                    + "' before '"
                    + x
                    + "'");
          }
        }
      }
    }

    /** 0, 1, …, n − 1. */
    public static List<Integer> identity(int n) {
      return java.util.stream.IntStream.range(0, n).boxed().toList();
    }

    public boolean inOrder() {
      return levelOrder.equals(identity(levelOrder.size()));
    }

    /** Whether some level is coded by a dictionary (published as {@code level_values}). */
    public boolean hasDictionaries() {
      return levelValues.stream().anyMatch(v -> !v.isEmpty());
    }

    private List<String> dictionary(int i) {
      return levelValues.isEmpty() ? List.of() : levelValues.get(i);
    }

    private int width() {
      return levelBits.stream().mapToInt(Integer::intValue).sum();
    }

    @Override
    public long sizeMinus1(StringAttribute a) {
      return width() == 64 ? -1L : (1L << width()) - 1;
    }

    @Override
    public long offset(StringAttribute a, String value) {
      String[] levels = value.split("/", -1);
      return ranges(levelCodes(levels, levels.length), MAX_RANGES)[0];
    }

    /** The code of coded level i for {@code text} ({@code ""}: absent). */
    long levelCode(int i, String text) {
      int b = levelBits.get(i);
      List<String> dict = dictionary(i);
      if (dict.isEmpty()) {
        return text.isEmpty() ? 0L : hash(text) >>> (64 - b);
      }
      int k = java.util.Collections.binarySearch(dict, text, StringCoding::compareBytes);
      long code = k >= 0 ? k : dict.size();
      return b >= 63 ? code : Math.min(code, (1L << b) - 1);
    }

    /** The codes a {@code +} can take at coded level i: {lo, hi}. */
    private long[] presentCodes(int i) {
      int b = levelBits.get(i);
      long all = b == 64 ? -1L : (1L << b) - 1;
      List<String> dict = dictionary(i);
      if (dict.isEmpty()) {
        return new long[] {0, all};
      }
      long lo = dict.getFirst().isEmpty() ? 1 : 0; // "" (absent) sorts first
      long hi = b >= 63 ? dict.size() : Math.min(dict.size(), all);
      return new long[] {Math.min(lo, hi), hi};
    }

    /** Per level j: {code, code} of level j's text (j < known), else absent, or null (free). */
    private long[][] levelCodes(String[] levels, int known) {
      long[][] spec = new long[levelBits.size()][];
      for (int i = 0; i < spec.length; i++) {
        int j = levelOrder.get(i);
        long c = levelCode(i, j < known ? levels[j] : "");
        spec[j] = new long[] {c, c};
      }
      return spec;
    }

    @Override
    public long[] prefixRanges(StringAttribute a, String prefix) {
      String[] levels = prefix.split("/", -1);
      int whole = levels.length - 1; // the last piece may continue in a value
      long[][] spec = levelCodes(levels, whole);
      for (int j = whole; j < spec.length; j++) {
        spec[j] = null;
      }
      return ranges(spec, MAX_RANGES);
    }

    @Override
    public long[] patternRanges(StringAttribute a, String filter) {
      return patternRanges(filter, MAX_RANGES);
    }

    /**
     * The ranges of an MQTT filter, with at most about {@code maxRanges} of them: literal levels
     * fixed, {@code +} the codes of present values, {@code #} and every later level free, levels
     * past a filter without {@code #} absent.
     */
    public long[] patternRanges(String filter, int maxRanges) {
      String[] f = filter.split("/", -1);
      int known = f.length;
      for (int j = 0; j < f.length; j++) {
        if (f[j].equals("#")) {
          known = j;
          break;
        }
      }
      long[][] spec = levelCodes(f, known);
      for (int i = 0; i < spec.length; i++) {
        int j = levelOrder.get(i);
        if (j >= known && known < f.length) {
          spec[j] = null;
        } else if (j < known && f[j].equals("+")) {
          spec[j] = presentCodes(i);
        }
      }
      return ranges(spec, maxRanges);
    }

    /**
     * The codes whose level j is in spec[j] (an interval {lo, hi}; null: any), as ascending ranges.
     * Intervals before a fixed level are enumerated while there are at most {@code maxRanges}
     * ranges; past that every later level is taken as free (a superset).
     */
    private long[] ranges(long[][] spec, int maxRanges) {
      List<Long> starts = new ArrayList<>(List.of(0L));
      int used = 0;
      for (int i = 0; i < levelBits.size(); i++) {
        boolean restFree = true;
        for (int k = i; k < levelBits.size(); k++) {
          restFree &= spec[levelOrder.get(k)] == null;
        }
        int b = levelBits.get(i);
        long[] code = spec[levelOrder.get(i)];
        if (code == null) {
          code = new long[] {0, presentCodes(i)[1]}; // absent or any value
        }
        long count = code[1] - code[0] + 1;
        if (restFree
            || count != 1
                && (count <= 0 || count > maxRanges || starts.size() * count > maxRanges)) {
          break;
        }
        List<Long> next = new ArrayList<>();
        for (long s : starts) {
          for (long c = code[0]; c - code[0] < count; c++) {
            next.add(b == 64 ? c : s << b | c);
          }
        }
        starts = next;
        used += b;
      }
      int freeBits = width() - used;
      long free = freeBits == 64 ? -1L : (1L << freeBits) - 1;
      List<Long> out = new ArrayList<>(); // adjacent ranges merged
      for (long s : starts) {
        long lo = freeBits == 64 ? 0 : s << freeBits;
        if (!out.isEmpty() && out.getLast() + 1 == lo) {
          out.set(out.size() - 1, lo | free);
        } else {
          out.add(lo);
          out.add(lo | free);
        }
      }
      return out.stream().mapToLong(Long::longValue).toArray();
    }

    @Override
    public String kind() {
      return "topic";
    }
  }

  /** FNV-1a over the UTF-8 bytes, then fmix64. */
  static long hash(String value) {
    long h = 0xcbf29ce484222325L;
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * 0x100000001b3L;
    }
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    h ^= h >>> 33;
    return h;
  }

  /** Unsigned lexicographic order of the UTF-8 bytes (the order of the Ordered coding). */
  static int compareBytes(String x, String y) {
    return Arrays.compareUnsigned(
        x.getBytes(StandardCharsets.UTF_8), y.getBytes(StandardCharsets.UTF_8));
  }

  /** The leading bits that every one of {@code values} shares (their UTF-8 bytes zero-padded). */
  static String commonBits(java.util.Collection<String> values, int maxLength) {
    List<byte[]> bytes = new ArrayList<>();
    values.forEach(v -> bytes.add(v.getBytes(StandardCharsets.UTF_8)));
    StringBuilder out = new StringBuilder();
    if (bytes.isEmpty()) {
      return "";
    }
    for (int i = 0; i < 8 * maxLength; i++) {
      int first = Ordered.bit(bytes.get(0), i, 0);
      for (byte[] b : bytes) {
        if (Ordered.bit(b, i, 0) != first) {
          return out.toString();
        }
      }
      out.append(first);
    }
    return out.toString();
  }
}
