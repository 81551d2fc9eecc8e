package org.netpubsub.content.index;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.IntConstraint;
import org.netpubsub.content.filter.StringConstraint;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IndexLayout;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.IntCuts;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;
import org.netpubsub.content.schema.StringCoding;

/**
 * Learns an index layout from a sample of events and subscriptions (docs/content-model.md, "Learned
 * layouts"): first a coding per string attribute from the values seen and the operators used, then
 * the bits greedily — each step appends the run of 1, 2, 4 or 8 bits of one attribute that removes
 * the most false positives per bit from the sample, with covers of at most {@code maxCells} cells,
 * until the dz length is used. Attributes that get no bits are not indexed. Pure and deterministic.
 */
public final class LayoutDesigner {
  private static final int[] RUNS = {1, 2, 4, 8};

  /** Int attributes whose subscriptions use more bounds than this keep the uniform code. */
  static final int MAX_CUTS = 255;

  /** A dictionary is chosen for at most this many distinct values seen... */
  static final int DICTIONARY_VALUES = 1024;

  /** ...each seen this many times on average (else the sample likely misses values). */
  static final int DICTIONARY_REPEATS = 4;

  private LayoutDesigner() {}

  /** The learned schema (index and layout) and what it and the round-robin index deliver. */
  public record Design(
      Schema schema,
      int length,
      int maxCells,
      FalsePositiveSample.Result learned,
      FalsePositiveSample.Result roundRobin) {}

  /**
   * Designs a layout of {@code length} bits for {@code schema}'s attributes, compared with the
   * schema's own (round-robin) index at the same length and cell budget.
   */
  public static Design design(Schema schema, FalsePositiveSample sample, int length, int maxCells) {
    if (length < 1 || length > Dz.MAX_LENGTH) {
      throw new IllegalArgumentException("length " + length + " is outside 1.." + Dz.MAX_LENGTH);
    }
    Map<String, StringCoding> codings = new LinkedHashMap<>();
    Map<String, IntCuts> cuts = new LinkedHashMap<>();
    for (Attribute a : schema.attributes()) {
      switch (a) {
        case StringAttribute s -> codings.put(a.name(), coding(s, sample));
        case IntAttribute i -> cuts(i, sample).ifPresent(c -> cuts.put(a.name(), c));
      }
    }
    List<String> all = schema.attributes().stream().map(Attribute::name).toList();
    IndexLayout coded = new IndexLayout(List.of(), codings, cuts);
    Schema wide = schema.withIndex(all).withLayout(coded);
    SpatialIndex offsetsIndex = new SpatialIndex(wide, 1);
    long[][] offsets = new long[sample.events().size()][];
    for (int e = 0; e < offsets.length; e++) {
      offsets[e] = offsetsIndex.offsets(sample.events().get(e));
    }
    int[] resolution = new int[all.size()];
    for (int d = 0; d < resolution.length; d++) {
      resolution[d] = offsetsIndex.resolution(d);
    }
    List<String> bits = new ArrayList<>();
    int[] used = new int[all.size()];
    long current = sample.withoutIndex();
    int turn = 0;
    while (bits.size() < length) {
      double bestGain = 0;
      int bestDim = -1;
      int bestRun = 0;
      long bestFp = current;
      for (int d = 0; d < all.size(); d++) {
        for (int run : RUNS) {
          if (used[d] + run > resolution[d] || bits.size() + run > length) {
            break;
          }
          List<String> trial = new ArrayList<>(bits);
          for (int k = 0; k < run; k++) {
            trial.add(all.get(d));
          }
          long fp = falsePositives(wide, coded, trial, offsets, sample, maxCells);
          double gain = (double) (current - fp) / run;
          if (gain > bestGain) {
            bestGain = gain;
            bestDim = d;
            bestRun = run;
            bestFp = fp;
          }
        }
      }
      if (bestDim < 0) { // no run helps the sample: keep refining round-robin
        for (int tried = 0; tried < all.size() && bestDim < 0; tried++) {
          int d = (turn + tried) % all.size();
          if (used[d] < resolution[d]) {
            bestDim = d;
            bestRun = 1;
          }
        }
        if (bestDim < 0) {
          break; // every attribute resolved
        }
        turn = bestDim + 1;
        bestFp =
            falsePositives(wide, coded, append(bits, all.get(bestDim)), offsets, sample, maxCells);
      }
      for (int k = 0; k < bestRun; k++) {
        bits.add(all.get(bestDim));
      }
      used[bestDim] += bestRun;
      current = bestFp;
    }
    Schema learned = narrowed(schema, coded.withBits(bits));
    FalsePositiveSample.Result mine =
        sample.measure(new SpatialIndex(learned, bits.size()), maxCells);
    FalsePositiveSample.Result theirs =
        sample.measure(
            new SpatialIndex(schema.withLayout(IndexLayout.ROUND_ROBIN), length), maxCells);
    return new Design(learned, bits.size(), maxCells, mine, theirs);
  }

  private static List<String> append(List<String> bits, String name) {
    List<String> out = new ArrayList<>(bits);
    out.add(name);
    return out;
  }

  private static long falsePositives(
      Schema wide,
      IndexLayout coded,
      List<String> bits,
      long[][] offsets,
      FalsePositiveSample sample,
      int maxCells) {
    SpatialIndex index = new SpatialIndex(wide.withLayout(coded.withBits(bits)), bits.size());
    return sample.measure(index, offsets, maxCells).falsePositives();
  }

  /** The schema indexing the attributes that got bits, in the order of their first bit. */
  private static Schema narrowed(Schema schema, IndexLayout layout) {
    Set<String> dims = new LinkedHashSet<>(layout.bits());
    Map<String, StringCoding> codings = new LinkedHashMap<>();
    layout
        .codings()
        .forEach(
            (name, c) -> {
              if (dims.contains(name) && !c.equals(StringCoding.Ordered.DEFAULT)) {
                codings.put(name, c);
              }
            });
    Map<String, IntCuts> cuts = new LinkedHashMap<>(layout.cuts());
    cuts.keySet().retainAll(dims);
    return schema
        .withIndex(List.copyOf(dims))
        .withLayout(new IndexLayout(layout.bits(), codings, cuts));
  }

  /**
   * Cuts at the bounds the subscriptions use (a range [lo, hi] cuts at lo and hi + 1, an excluded
   * point e at e and e + 1), when there are at most {@value #MAX_CUTS} of them: then every range of
   * the sample is a whole number of cells. More bounds than that: the uniform code.
   */
  static Optional<IntCuts> cuts(IntAttribute a, FalsePositiveSample sample) {
    TreeSet<Long> out = new TreeSet<>();
    for (Dnf dnf : sample.subscriptions()) {
      for (Conjunction c : dnf.conjunctions()) {
        if (c.constraint(a.position()).orElse(null) instanceof IntConstraint k) {
          cut(out, a, k.low());
          if (k.high() < a.max()) {
            cut(out, a, k.high() + 1);
          }
          for (long e : k.excluded()) {
            cut(out, a, e);
            if (e < a.max()) {
              cut(out, a, e + 1);
            }
          }
        }
      }
    }
    return out.isEmpty() || out.size() > MAX_CUTS
        ? Optional.empty()
        : Optional.of(new IntCuts(List.copyOf(out)));
  }

  private static void cut(TreeSet<Long> out, IntAttribute a, long at) {
    if (at > a.min() && at <= a.max()) {
      out.add(at);
    }
  }

  /**
   * The coding of one string attribute: a dictionary of the values seen (and the filters'
   * constants) when they are few and each recurs; else a topic coding for a topic attribute or when
   * values are paths; else order-preserving with the common leading bits skipped when filters use
   * prefixes; else a hash.
   */
  static StringCoding coding(StringAttribute a, FalsePositiveSample sample) {
    Set<String> seen = new HashSet<>();
    for (Event e : sample.events()) {
      seen.add(e.stringValue(a.position()));
    }
    Set<String> equal = new HashSet<>();
    Set<String> prefixes = new HashSet<>();
    List<String> filters = new ArrayList<>(); // MQTT filters, equalities included
    for (Dnf dnf : sample.subscriptions()) {
      for (Conjunction c : dnf.conjunctions()) {
        AttributeConstraint k = c.constraint(a.position()).orElse(null);
        if (k instanceof StringConstraint s) {
          if (s.equalTo() != null) {
            equal.add(s.equalTo());
            filters.add(s.equalTo());
          }
          prefixes.addAll(s.prefixes());
          filters.addAll(s.patterns());
        }
      }
    }
    if (!seen.isEmpty()
        && seen.size() <= DICTIONARY_VALUES
        && seen.size() * DICTIONARY_REPEATS <= sample.events().size()) {
      Set<String> values = new HashSet<>(seen);
      for (String v : equal) {
        if (values.size() < StringCoding.MAX_DICTIONARY && a.fits(v)) {
          values.add(v);
        }
      }
      return StringCoding.Dictionary.of(values);
    }
    long paths = seen.stream().filter(v -> v.contains("/")).count();
    if (a.isTopic() && !seen.isEmpty() || !seen.isEmpty() && paths * 10 >= seen.size() * 9L) {
      return TopicDesign.coding(seen, filters, sample.events(), a);
    }
    if (prefixes.isEmpty()) {
      return new StringCoding.Hash();
    }
    Set<String> all = new HashSet<>(seen);
    all.addAll(equal);
    all.addAll(prefixes);
    return new StringCoding.Ordered(StringCoding.commonBits(all, a.maxLength()));
  }
}
