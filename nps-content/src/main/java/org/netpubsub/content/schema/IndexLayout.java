package org.netpubsub.content.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which index dimension each dz bit refines, and how each string dimension is coded
 * (docs/content-model.md, "Index layouts"). {@code bits} names the dimension of bits 0, 1, …
 * explicitly; bits past them continue round-robin over the dimensions not yet resolved, so the
 * empty layout is PLEROMA's interleaving. A string dimension without a coding is {@link
 * StringCoding.Ordered#DEFAULT}.
 *
 * <p>Written as segments: {@code symbol:4} is 4 bits of symbol, {@code price+volume:6} is 6 bits
 * alternating price, volume, price, …
 */
public record IndexLayout(
    List<String> bits, Map<String, StringCoding> codings, Map<String, IntCuts> cuts) {
  /** The most bits a layout orders: a dz's length limit (index.Dz.MAX_LENGTH, tested equal). */
  public static final int MAX_BITS = 112;

  public static final IndexLayout ROUND_ROBIN = new IndexLayout(List.of(), Map.of());

  public IndexLayout {
    bits = List.copyOf(bits);
    codings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(codings));
    cuts = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(cuts));
    if (bits.size() > MAX_BITS) {
      throw new IllegalArgumentException(
          "layout.bits: " + bits.size() + " bits, a dz has at most " + MAX_BITS);
    }
  }

  /** A layout without int cuts. */
  public IndexLayout(List<String> bits, Map<String, StringCoding> codings) {
    this(bits, codings, Map.of());
  }

  /** The same layout with other bits. */
  public IndexLayout withBits(List<String> newBits) {
    return new IndexLayout(newBits, codings, cuts);
  }

  /** The dimension of index attribute {@code a} under this layout's coding. */
  public boolean isRoundRobin() {
    return equals(ROUND_ROBIN);
  }

  /** The coding of string dimension {@code name}. */
  public StringCoding coding(String name) {
    return codings.getOrDefault(name, StringCoding.Ordered.DEFAULT);
  }

  /**
   * The problem that makes this layout unusable with {@code schema}'s index, naming the field: bits
   * or codings of attributes that are not index dimensions, codings of int attributes, dictionary
   * values longer than max_length, common bits longer than the attribute, more bits of a dimension
   * than resolve it.
   */
  public Optional<String> problem(Schema schema) {
    List<String> index = schema.indexDimensions().stream().map(Attribute::name).toList();
    for (String b : bits) {
      if (!index.contains(b)) {
        return Optional.of(
            "layout.bits: '" + b + "' is not an index dimension (index: " + index + ")");
      }
    }
    for (var e : codings.entrySet()) {
      String where = "layout.codings." + e.getKey();
      if (!index.contains(e.getKey())) {
        return Optional.of(where + ": '" + e.getKey() + "' is not an index dimension");
      }
      if (!(schema.attribute(e.getKey()).orElseThrow() instanceof StringAttribute s)) {
        return Optional.of(where + ": codings apply to string attributes only");
      }
      switch (e.getValue()) {
        case StringCoding.Dictionary d -> {
          for (String v : d.values()) {
            if (!s.fits(v)) {
              return Optional.of(
                  where + ".values: '" + v + "' is longer than max_length " + s.maxLength());
            }
          }
        }
        case StringCoding.Ordered o -> {
          if (o.commonBits().length() > 8L * s.maxLength()) {
            return Optional.of(
                where
                    + ".common_bits: longer than the attribute's "
                    + 8L * s.maxLength()
                    + " bits");
          }
        }
        default -> {}
      }
    }
    for (var e : cuts.entrySet()) {
      String where = "layout.codings." + e.getKey();
      if (!index.contains(e.getKey())) {
        return Optional.of(where + ": '" + e.getKey() + "' is not an index dimension");
      }
      if (!(schema.attribute(e.getKey()).orElseThrow() instanceof IntAttribute i)) {
        return Optional.of(where + ": cuts apply to int attributes only");
      }
      String problem = e.getValue().problem(i);
      if (problem != null) {
        return Optional.of(where + ".cuts: " + problem);
      }
    }
    for (Attribute a : schema.indexDimensions()) {
      int resolution = resolution(a);
      long given = bits.stream().filter(a.name()::equals).count();
      if (given > resolution) {
        return Optional.of(
            "layout.bits: "
                + given
                + " bits of '"
                + a.name()
                + "', more than the "
                + resolution
                + " that resolve it");
      }
    }
    return Optional.empty();
  }

  /** The bits as segments ({@code name:n} or {@code a+b+…:n}), longest runs first. */
  public List<String> segments() {
    List<String> out = new ArrayList<>();
    int i = 0;
    while (i < bits.size()) {
      int bestGroup = 1;
      int bestRun = run(i, 1);
      for (int g = 2; i + g <= bits.size() && distinct(i, g); g++) {
        int r = run(i, g);
        if (r > bestRun && r >= 2 * g) {
          bestGroup = g;
          bestRun = r;
        }
      }
      out.add(String.join("+", bits.subList(i, i + bestGroup)) + ":" + bestRun);
      i += bestRun;
    }
    return out;
  }

  private boolean distinct(int from, int g) {
    return bits.subList(from, from + g).stream().distinct().count() == g;
  }

  private int run(int from, int g) {
    int j = from;
    while (j < bits.size() && bits.get(j).equals(bits.get(from + (j - from) % g))) {
      j++;
    }
    return j - from;
  }

  /** The bits of {@code segments} (see {@link #segments()}); a bad segment is refused. */
  public static List<String> expand(List<String> segments) {
    List<String> out = new ArrayList<>();
    for (String s : segments) {
      int colon = s.lastIndexOf(':');
      String problem = "layout.bits: '" + s + "' is not name:count or name+name+…:count";
      if (colon < 1) {
        throw new IllegalArgumentException(problem);
      }
      int n;
      try {
        n = Integer.parseInt(s.substring(colon + 1).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(problem);
      }
      if (n < 1 || out.size() + n > MAX_BITS) {
        throw new IllegalArgumentException(
            "layout.bits: '" + s + "' makes more than " + MAX_BITS + " bits or none");
      }
      String[] group = s.substring(0, colon).split("\\+", -1);
      for (String g : group) {
        if (g.isBlank()) {
          throw new IllegalArgumentException(problem);
        }
      }
      for (int k = 0; k < n; k++) {
        out.add(group[k % group.length].trim());
      }
    }
    return out;
  }

  /** The snake_case JSON form published in {@code GET /v1/pubsub} (docs/content-model.md). */
  public Map<String, Object> toJson() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("bits", bits);
    m.put("segments", segments());
    Map<String, Object> c = new LinkedHashMap<>();
    codings.forEach((name, coding) -> c.put(name, codingJson(coding)));
    cuts.forEach(
        (name, k) -> {
          Map<String, Object> m2 = new LinkedHashMap<>();
          m2.put("kind", "cuts");
          m2.put("cuts", k.cuts());
          c.put(name, m2);
        });
    m.put("codings", c);
    return m;
  }

  /** One coding as JSON: its kind and its parameters. */
  public static Map<String, Object> codingJson(StringCoding coding) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("kind", coding.kind());
    switch (coding) {
      case StringCoding.Ordered o -> m.put("common_bits", o.commonBits());
      case StringCoding.Dictionary d -> m.put("values", d.values());
      case StringCoding.Topic t -> {
        m.put("level_bits", t.levelBits());
        if (!t.inOrder()) {
          m.put("level_order", t.levelOrder());
        }
        if (t.hasDictionaries()) {
          m.put("level_values", t.levelValues());
        }
      }
      case StringCoding.Hash h -> {}
    }
    return m;
  }

  /** Bits after which every cell of {@code a} holds one value under this layout's coding. */
  private int resolution(Attribute a) {
    long n = sizeMinus1(a, coding(a.name()), cuts.get(a.name()));
    return 64 - Long.numberOfLeadingZeros(n);
  }

  /**
   * The number of coded values of {@code a} minus one, unsigned: its range, its cuts plus one, or
   * its string coding's size. The one count both this layout's checks and index.IndexDimension use.
   */
  public static long sizeMinus1(Attribute a, StringCoding coding, IntCuts intCuts) {
    return switch (a) {
      case IntAttribute i -> intCuts == null ? i.max() - i.min() : intCuts.cuts().size();
      case StringAttribute s -> coding.sizeMinus1(s);
    };
  }
}
