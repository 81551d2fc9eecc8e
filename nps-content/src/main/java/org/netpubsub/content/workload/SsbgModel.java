package org.netpubsub.content.workload;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;

/**
 * The Siena Synthetic Benchmark Generator (ssbg) model, as Camus §7 uses it for its compiler memory
 * experiments (Fig. 12), with the parameters of FORMATS.md.
 *
 * <ul>
 *   <li>Schema: attributes {@code x0..x{n-1}} (default n = 10), each with a fixed kind: even
 *       positions are ints in U[-100, 100) (domain [-100, 99]), odd positions strings (so half and
 *       half; x0 is an int). String values come from a built-in list of 187 common English words
 *       (resource {@code workload/ssbg-words.txt}), weighted 1/rank; max_length is the longest
 *       word.
 *   <li>A filter is a disjunction of 1 + Poisson(avg) conjunctions (avg 0 gives single
 *       conjunctions). A conjunction has k constraints with weights {1:10, 2:40, 3:30, 4:10, 5:5,
 *       6:5} (k capped at n) on k distinct attributes, chosen by Zipf (exponent 1, x0 the most
 *       popular) or uniformly.
 *   <li>Int constraints: {@code ==} 40, {@code <} 25, {@code >} 25, {@code !=} 10, constant uniform
 *       in the domain.
 *   <li>String constraints: ssbg's weights are {@code ==} 40, prefix, suffix, substring, {@code
 *       !=}, {@code <}, {@code >} 10 each. Our filter language has no lexical {@code <}/{@code >}
 *       on strings, so those two are dropped and the rest renormalized (equivalently, their weight
 *       is spread over the others in proportion): {@code ==} 50 %, {@code prefix}, {@code suffix},
 *       {@code contains}, {@code !=} 12.5 % each. The constant of {@code ==}/{@code !=} is a
 *       weighted word; prefix/suffix constants are a prefix/suffix of a weighted word of uniform
 *       length in [1, len]; contains constants a substring of uniform length at a uniform offset.
 *   <li>Events carry every attribute (netpubsub events have no optional attributes). ssbg's
 *       "attributes per message" {1:5, 2:10, 3:10, 4:20, 5:20, 6:20, 7:10, 8:5} picks how many
 *       attributes (chosen like constraint attributes) are <em>interesting</em>: their values come
 *       from the constraint-constant distributions (strings: weighted words). The others are filled
 *       uniformly from the domain (strings: a word drawn uniformly). Ints are uniform either way.
 * </ul>
 */
public final class SsbgModel implements WorkloadModel {
  public static final String NAME = "ssbg";
  public static final int DEFAULT_ATTRIBUTES = 10;
  public static final int MAX_ATTRIBUTES = 64;
  public static final long INT_MIN = -100;
  public static final long INT_MAX = 99;

  /** How constraint (and interesting event) attributes are chosen. */
  public enum AttributeChoice {
    ZIPF,
    UNIFORM;

    public static AttributeChoice parse(String label) {
      for (AttributeChoice c : values()) {
        if (c.name().toLowerCase(Locale.ROOT).equals(label)) {
          return c;
        }
      }
      throw new IllegalArgumentException(
          "unknown attribute distribution '" + label + "' (use zipf or uniform)");
    }
  }

  static final List<String> INT_OPS = List.of("==", "<", ">", "!=");
  static final double[] INT_OP_WEIGHTS = {40, 25, 25, 10};
  static final List<String> STRING_OPS = List.of("==", "prefix", "suffix", "contains", "!=");
  static final double[] STRING_OP_WEIGHTS = {40, 10, 10, 10, 10};

  /** Weights of 1..6 constraints per conjunction. */
  static final double[] CONSTRAINTS_PER_CONJUNCTION = {10, 40, 30, 10, 5, 5};

  /** Weights of 1..8 interesting attributes per event. */
  static final double[] ATTRIBUTES_PER_MESSAGE = {5, 10, 10, 20, 20, 20, 10, 5};

  private static final Weighted INT_OP = new Weighted(INT_OP_WEIGHTS);
  private static final Weighted STRING_OP = new Weighted(STRING_OP_WEIGHTS);
  private static final Weighted CONJUNCTION_SIZE = new Weighted(CONSTRAINTS_PER_CONJUNCTION);
  private static final Weighted MESSAGE_SIZE = new Weighted(ATTRIBUTES_PER_MESSAGE);

  private final int attributes;
  private final double disjunctions;
  private final AttributeChoice choice;
  private final Schema schema;
  private final List<String> words = Words.all();
  private final Zipf wordRank = new Zipf(Words.all().size(), 1.0);
  private final Zipf attributeRank;

  /**
   * @param disjunctions the mean of the Poisson number of extra conjunctions per filter (0..100)
   */
  public SsbgModel(int attributes, double disjunctions, AttributeChoice choice) {
    if (attributes < 1 || attributes > MAX_ATTRIBUTES) {
      throw new IllegalArgumentException(
          "attributes must be in [1, " + MAX_ATTRIBUTES + "], got " + attributes);
    }
    if (!(disjunctions >= 0 && disjunctions <= 100)) {
      throw new IllegalArgumentException(
          "mean extra disjunctions must be in [0, 100], got " + disjunctions);
    }
    this.attributes = attributes;
    this.disjunctions = disjunctions;
    this.choice = Objects.requireNonNull(choice, "choice");
    this.attributeRank = new Zipf(attributes, 1.0);
    Schema.Builder b = Schema.builder(NAME);
    for (int i = 0; i < attributes; i++) {
      if (i % 2 == 0) {
        b.intAttribute("x" + i, INT_MIN, INT_MAX);
      } else {
        b.stringAttribute("x" + i, Words.maxLength());
      }
    }
    this.schema = b.build();
  }

  /** The defaults: 10 attributes, single conjunctions, Zipf attribute choice. */
  public SsbgModel() {
    this(DEFAULT_ATTRIBUTES, 0, AttributeChoice.ZIPF);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Schema schema() {
    return schema;
  }

  @Override
  public Workload generate(WorkloadSpec spec) {
    return new Generation(spec)
        .assemble(
            NAME,
            schema,
            Generation.Destination.HOST,
            0,
            (rng, i) -> new Generation.Drawn(drawFilter(rng), -1),
            this::drawEvent);
  }

  private String drawFilter(Rand rng) {
    int count = 1 + rng.poisson(disjunctions);
    List<List<String>> conjunctions = new ArrayList<>(count);
    for (int c = 0; c < count; c++) {
      int k = Math.min(CONJUNCTION_SIZE.sample(rng) + 1, attributes);
      List<String> constraints = new ArrayList<>(k);
      for (int position : distinctAttributes(rng, k)) {
        constraints.add(drawConstraint(rng, schema.attribute(position)));
      }
      conjunctions.add(constraints);
    }
    return FilterText.or(conjunctions);
  }

  private String drawConstraint(Rand rng, Attribute attribute) {
    if (attribute instanceof IntAttribute) {
      String op = INT_OPS.get(INT_OP.sample(rng));
      return FilterText.compare(attribute.name(), op, rng.between(INT_MIN, INT_MAX));
    }
    String op = STRING_OPS.get(STRING_OP.sample(rng));
    String word = weightedWord(rng);
    int len = 1 + rng.belowInt(word.length());
    String constant =
        switch (op) {
          case "prefix" -> word.substring(0, len);
          case "suffix" -> word.substring(word.length() - len);
          case "contains" -> {
            int start = rng.belowInt(word.length() - len + 1);
            yield word.substring(start, start + len);
          }
          default -> word;
        };
    return FilterText.string(attribute.name(), op, constant);
  }

  private Event drawEvent(Rand rng, long index) {
    boolean[] interesting = new boolean[attributes];
    int m = Math.min(MESSAGE_SIZE.sample(rng) + 1, attributes);
    for (int position : distinctAttributes(rng, m)) {
      interesting[position] = true;
    }
    Event.Builder b = Event.builder(schema).sequence(index);
    for (int i = 0; i < attributes; i++) {
      Attribute a = schema.attribute(i);
      if (a instanceof IntAttribute) {
        b.set(a, rng.between(INT_MIN, INT_MAX));
      } else {
        b.set(a, interesting[i] ? weightedWord(rng) : words.get(rng.belowInt(words.size())));
      }
    }
    return b.build();
  }

  /** {@code k} distinct attribute positions (k &le; n), in ascending order. */
  private int[] distinctAttributes(Rand rng, int k) {
    boolean[] taken = new boolean[attributes];
    int[] out = new int[k];
    for (int found = 0; found < k; ) {
      int position =
          choice == AttributeChoice.ZIPF ? attributeRank.sample(rng) - 1 : rng.belowInt(attributes);
      if (!taken[position]) { // redraw repeats: a conjunction constrains an attribute once
        taken[position] = true;
        out[found++] = position;
      }
    }
    Arrays.sort(out);
    return out;
  }

  private String weightedWord(Rand rng) {
    return words.get(wordRank.sample(rng) - 1);
  }
}
