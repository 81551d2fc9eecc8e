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
import java.util.function.ToLongFunction;
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
   * schema's own (round-robin) index at the same length and cell budget. Scored per subscription:
   * no flow budget.
   */
  public static Design design(Schema schema, FalsePositiveSample sample, int length, int maxCells) {
    return design(schema, sample, length, maxCells, null);
  }

  /**
   * {@link #design(Schema, FalsePositiveSample, int, int)} for edge switches that hold at most
   * {@code budget.maxFlows()} flows ({@code null}: no flow budget): every candidate layout is
   * scored by {@link HostUnionScore} (hosts' unions of covers merged to the budget) instead of per
   * subscription, and each topic level order the coding offers gets its own bit allocation, the
   * best kept (docs/content-model.md, "Designing for a flow budget").
   */
  public static Design design(
      Schema schema, FalsePositiveSample sample, int length, int maxCells, HostBudget budget) {
    if (length < 1 || length > Dz.MAX_LENGTH) {
      throw new IllegalArgumentException("length " + length + " is outside 1.." + Dz.MAX_LENGTH);
    }
    // without a flow budget a topic order is scored by the cover's own K ranges a filter
    int ranges = budget == null ? maxCells : TopicDesign.RANGES;
    Map<String, List<StringCoding>> candidates = new LinkedHashMap<>();
    Map<String, StringCoding> codings = new LinkedHashMap<>();
    Map<String, IntCuts> cuts = new LinkedHashMap<>();
    for (Attribute a : schema.attributes()) {
      switch (a) {
        case StringAttribute s -> {
          List<StringCoding> c = codings(s, sample, ranges);
          candidates.put(a.name(), c);
          codings.put(a.name(), c.getFirst());
        }
        case IntAttribute i -> cuts(i, sample).ifPresent(c -> cuts.put(a.name(), c));
      }
    }
    HostUnionScore union = budget == null ? null : new HostUnionScore(sample, budget, maxCells);
    Allocation best = allocate(schema, codings, cuts, sample, length, maxCells, union);
    if (union != null) { // each attribute's alternatives in turn, the others at their best
      for (Map.Entry<String, List<StringCoding>> e : candidates.entrySet()) {
        for (StringCoding c : e.getValue().subList(1, e.getValue().size())) {
          Map<String, StringCoding> trial = new LinkedHashMap<>(best.codings());
          trial.put(e.getKey(), c);
          Allocation a = allocate(schema, trial, cuts, sample, length, maxCells, union);
          if (a.score() < best.score()) {
            best = a;
          }
        }
      }
    }
    List<String> bits = best.bits();
    IndexLayout coded = new IndexLayout(List.of(), best.codings(), cuts);
    Schema learned = narrowed(schema, coded.withBits(bits));
    FalsePositiveSample.Result mine =
        sample.measure(new SpatialIndex(learned, bits.size()), maxCells);
    FalsePositiveSample.Result theirs =
        sample.measure(
            new SpatialIndex(schema.withLayout(IndexLayout.ROUND_ROBIN), length), maxCells);
    return new Design(learned, bits.size(), maxCells, mine, theirs);
  }

  /** A bit allocation for fixed codings and what it scores on the sample. */
  private record Allocation(Map<String, StringCoding> codings, List<String> bits, long score) {}

  /**
   * The greedy bit allocation for the codings: runs of 1, 2, 4 or 8 bits of one attribute, the most
   * false positives removed per bit first, scored per subscription ({@code union} null) or per host
   * under the flow budget.
   */
  private static Allocation allocate(
      Schema schema,
      Map<String, StringCoding> codings,
      Map<String, IntCuts> cuts,
      FalsePositiveSample sample,
      int length,
      int maxCells,
      HostUnionScore union) {
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
    ToLongFunction<List<String>> score =
        bits -> {
          SpatialIndex index = new SpatialIndex(wide.withLayout(coded.withBits(bits)), bits.size());
          return union == null
              ? sample.measure(index, offsets, maxCells).falsePositives()
              : union.falsePositives(index, offsets);
        };
    List<String> bits = new ArrayList<>();
    int[] used = new int[all.size()];
    long current = union == null ? sample.withoutIndex() : union.withoutIndex();
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
          long fp = score.applyAsLong(trial);
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
        bestFp = score.applyAsLong(append(bits, all.get(bestDim)));
      }
      for (int k = 0; k < bestRun; k++) {
        bits.add(all.get(bestDim));
      }
      used[bestDim] += bestRun;
      current = bestFp;
    }
    return new Allocation(codings, bits, current);
  }

  private static List<String> append(List<String> bits, String name) {
    List<String> out = new ArrayList<>(bits);
    out.add(name);
    return out;
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
   * The codings of one string attribute, the choice first and then the alternatives a flow budget
   * scores (a topic coding's other level orders; {@code ranges}: ranges a filter when {@link
   * TopicDesign} ranks them): a dictionary of the values seen (and the filters' constants) when
   * they are few and each recurs; else a topic coding for a topic attribute or when values are
   * paths; else order-preserving with the common leading bits skipped when filters use prefixes;
   * else a hash.
   */
  static List<StringCoding> codings(StringAttribute a, FalsePositiveSample sample, int ranges) {
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
      return List.of(StringCoding.Dictionary.of(values));
    }
    long paths = seen.stream().filter(v -> v.contains("/")).count();
    if (a.isTopic() && !seen.isEmpty() || !seen.isEmpty() && paths * 10 >= seen.size() * 9L) {
      return TopicDesign.codings(seen, filters, sample.events(), a, ranges);
    }
    if (prefixes.isEmpty()) {
      return List.of(new StringCoding.Hash());
    }
    Set<String> all = new HashSet<>(seen);
    all.addAll(equal);
    all.addAll(prefixes);
    return List.of(new StringCoding.Ordered(StringCoding.commonBits(all, a.maxLength())));
  }
}
