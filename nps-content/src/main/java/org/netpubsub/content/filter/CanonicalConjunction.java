package org.netpubsub.content.filter;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.content.filter.Filter.Aggregate;

/**
 * A {@link Conjunction} in canonical form: at most one constraint per attribute, none trivially
 * true, aggregates sorted and distinct. Equal content means equal objects. Immutable.
 */
final class CanonicalConjunction implements Conjunction {
  static final CanonicalConjunction TRUE = new CanonicalConjunction(new TreeMap<>(), List.of());

  private static final Comparator<Aggregate> AGGREGATE_ORDER =
      Comparator.comparing(Aggregate::function)
          .thenComparingInt(a -> a.argument() == null ? -1 : a.argument().position())
          .thenComparing(Aggregate::op)
          .thenComparing(Aggregate::threshold)
          .thenComparing(Aggregate::window);

  private final SortedMap<Integer, AttributeConstraint> byPosition;

  /** The same constraints in position order, for the hot loops of inclusion and equality. */
  private final AttributeConstraint[] ordered;

  private final List<Aggregate> aggregates;

  /** Bit i set when attribute i is constrained: a cheap first test for inclusion. */
  private final long[] mask;

  private final int hash;
  private final int size;

  /** The first attribute this conjunction pins to one value, and that value; see anchor(). */
  private final int anchorPosition;

  private final Object anchorValue;

  private CanonicalConjunction(
      SortedMap<Integer, AttributeConstraint> byPosition, List<Aggregate> aggregates) {
    this.byPosition = Collections.unmodifiableSortedMap(byPosition);
    this.ordered = byPosition.values().toArray(new AttributeConstraint[0]);
    this.aggregates = List.copyOf(aggregates);
    int maxPosition = byPosition.isEmpty() ? 0 : byPosition.lastKey();
    this.mask = new long[maxPosition / 64 + 1];
    int h = this.aggregates.hashCode();
    int s = this.aggregates.size();
    for (AttributeConstraint c : byPosition.values()) {
      int p = c.attribute().position();
      mask[p / 64] |= 1L << (p % 64);
      h = h * 31 + p;
      switch (c) {
        case IntConstraint i -> {
          h = h * 31 + IntConstraints.hash(i);
          s += IntConstraints.size(i);
        }
        case StringConstraint t -> {
          h = h * 31 + t.hashCode();
          s += StringConstraints.size(t);
        }
      }
    }
    this.hash = h;
    this.size = s;
    int ap = -1;
    Object av = null;
    for (AttributeConstraint c : byPosition.values()) {
      if (c instanceof IntConstraint i && i.low() == i.high()) {
        av = i.low();
      } else if (c instanceof StringConstraint t && t.equalTo() != null) {
        av = t.equalTo();
      } else {
        continue;
      }
      ap = c.attribute().position();
      break;
    }
    this.anchorPosition = ap;
    this.anchorValue = av;
  }

  /** The conjunction of one atom of a negation normal form; empty when the atom is false. */
  static Optional<CanonicalConjunction> ofAtom(Filter atom, WorkBudget budget) {
    return switch (atom) {
      case Filter.Constant c -> c.value() ? Optional.of(TRUE) : Optional.empty();
      case Filter.IntComparison c -> of(IntConstraints.of(c.attribute(), c.op(), c.value()));
      case Filter.IntRange r ->
          of(IntConstraints.of(r.attribute(), r.low(), r.high(), new long[0]));
      case Filter.StringComparison s -> of(string(s, false, budget));
      case Filter.Not n when n.operand() instanceof Filter.StringComparison s ->
          of(string(s, true, budget));
      case Filter.Aggregate a ->
          Optional.of(
              new CanonicalConjunction(
                  new TreeMap<>(),
                  List.of(
                      new Aggregate(
                          a.function(),
                          a.argument(),
                          a.op(),
                          a.threshold().stripTrailingZeros(),
                          a.window()))));
      default -> throw new IllegalArgumentException("not an atom in negation normal form: " + atom);
    };
  }

  private static StringConstraint string(
      Filter.StringComparison s, boolean negated, WorkBudget budget) {
    StringConstraints.Parts p = new StringConstraints.Parts();
    (switch (s.op()) {
          case EQ -> negated ? p.notEqualTo : p.equalTo;
          case NE -> negated ? p.equalTo : p.notEqualTo;
          case PREFIX -> negated ? p.notPrefixes : p.prefixes;
          case SUFFIX -> negated ? p.notSuffixes : p.suffixes;
          case CONTAINS -> negated ? p.notContains : p.contains;
          case MATCHES -> negated ? p.notPatterns : p.patterns;
        })
        .add(s.value());
    return StringConstraints.canonical(s.attribute(), p, budget);
  }

  private static Optional<CanonicalConjunction> of(AttributeConstraint c) {
    if (c == null) {
      return Optional.empty();
    }
    if (isFull(c)) {
      return Optional.of(TRUE);
    }
    TreeMap<Integer, AttributeConstraint> m = new TreeMap<>();
    m.put(c.attribute().position(), c);
    return Optional.of(new CanonicalConjunction(m, List.of()));
  }

  /** Both conjunctions at once; null when that is a contradiction. */
  CanonicalConjunction meet(CanonicalConjunction other, WorkBudget budget) {
    if (other.byPosition.isEmpty() && other.aggregates.isEmpty()) {
      return this;
    }
    if (byPosition.isEmpty() && aggregates.isEmpty()) {
      return other;
    }
    TreeMap<Integer, AttributeConstraint> m = new TreeMap<>(byPosition);
    for (AttributeConstraint c : other.byPosition.values()) {
      AttributeConstraint mine = m.get(c.attribute().position());
      AttributeConstraint both = mine == null ? c : meet(mine, c, budget);
      if (both == null) {
        return null;
      }
      if (isFull(both)) {
        m.remove(c.attribute().position());
      } else {
        m.put(c.attribute().position(), both);
      }
    }
    List<Aggregate> aggs = aggregates;
    if (!other.aggregates.isEmpty()) {
      TreeSet<Aggregate> all = new TreeSet<>(AGGREGATE_ORDER);
      all.addAll(aggregates);
      all.addAll(other.aggregates);
      aggs = new ArrayList<>(all);
    }
    return new CanonicalConjunction(m, aggs);
  }

  /**
   * All the conjunctions at once; null when that is a contradiction. Gathers each attribute's
   * demands and canonicalizes them once, so a long conjunction costs one sort, not one per atom.
   */
  static CanonicalConjunction meetAll(List<CanonicalConjunction> all, WorkBudget budget) {
    if (all.size() == 1) {
      return all.get(0);
    }
    TreeMap<Integer, List<AttributeConstraint>> demands = new TreeMap<>();
    TreeSet<Aggregate> aggs = new TreeSet<>(AGGREGATE_ORDER);
    for (CanonicalConjunction c : all) {
      for (AttributeConstraint a : c.byPosition.values()) {
        demands.computeIfAbsent(a.attribute().position(), p -> new ArrayList<>()).add(a);
      }
      aggs.addAll(c.aggregates);
    }
    TreeMap<Integer, AttributeConstraint> m = new TreeMap<>();
    for (var e : demands.entrySet()) {
      List<AttributeConstraint> list = e.getValue();
      AttributeConstraint both =
          list.size() == 1
              ? list.get(0)
              : switch (list.get(0)) {
                case IntConstraint i ->
                    IntConstraints.meetAll(list.stream().map(IntConstraint.class::cast).toList());
                case StringConstraint s ->
                    StringConstraints.meetAll(
                        list.stream().map(StringConstraint.class::cast).toList(), budget);
              };
      if (both == null) {
        return null;
      }
      if (!isFull(both)) {
        m.put(e.getKey(), both);
      }
    }
    return new CanonicalConjunction(m, new ArrayList<>(aggs));
  }

  private static AttributeConstraint meet(
      AttributeConstraint x, AttributeConstraint y, WorkBudget budget) {
    return switch (x) {
      case IntConstraint i -> IntConstraints.meet(i, (IntConstraint) y);
      case StringConstraint s -> StringConstraints.meet(s, (StringConstraint) y, budget);
    };
  }

  private static boolean isFull(AttributeConstraint c) {
    return switch (c) {
      case IntConstraint i -> IntConstraints.isFull(i);
      case StringConstraint s -> StringConstraints.isFull(s);
    };
  }

  /**
   * Whether every event satisfying this conjunction satisfies {@code other} (so that {@code other}
   * subsumes this one in a disjunction). Exact for int constraints, sound for the rest: aggregates
   * are opaque, so {@code other}'s must all appear here.
   */
  boolean isSubsetOf(CanonicalConjunction other) {
    if (other.mask.length > mask.length) {
      return false;
    }
    for (int i = 0; i < other.mask.length; i++) {
      if ((other.mask[i] & ~mask[i]) != 0) {
        return false;
      }
    }
    if (other.aggregates.size() > aggregates.size()) {
      return false;
    }
    // Both arrays are in position order and ours covers every position of the other's (mask).
    int j = 0;
    for (AttributeConstraint sup : other.ordered) {
      int p = sup.attribute().position();
      while (ordered[j].attribute().position() < p) {
        j++;
      }
      AttributeConstraint sub = ordered[j];
      boolean included =
          sup instanceof IntConstraint i
              ? IntConstraints.isSubset((IntConstraint) sub, i)
              : StringConstraints.isSubset((StringConstraint) sub, (StringConstraint) sup);
      if (!included) {
        return false;
      }
    }
    return other.aggregates.isEmpty() || aggregates.containsAll(other.aggregates);
  }

  /**
   * The position of the first attribute that this conjunction pins to a single value, or -1. Two
   * conjunctions pinning the same attribute to different values are disjoint, so neither includes
   * the other: {@link ConjunctionSet} uses this to skip most inclusion tests.
   */
  int anchorPosition() {
    return anchorPosition;
  }

  /** The value of the anchor attribute (a Long or a String), or null. */
  Object anchorValue() {
    return anchorValue;
  }

  /** Marks the positions of the attributes this conjunction constrains. */
  void addAttributesTo(BitSet attributes) {
    byPosition.keySet().forEach(attributes::set);
  }

  /** How much work this conjunction stands for (constraint elements); bounds normalization. */
  int size() {
    return size;
  }

  @Override
  public Optional<AttributeConstraint> constraint(int position) {
    return Optional.ofNullable(byPosition.get(position));
  }

  @Override
  public Collection<AttributeConstraint> constraints() {
    return byPosition.values();
  }

  @Override
  public List<Aggregate> aggregates() {
    return aggregates;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof CanonicalConjunction c)
        || c.hash != hash
        || c.byPosition.size() != byPosition.size()
        || !c.aggregates.equals(aggregates)) {
      return false;
    }
    for (int k = 0; k < ordered.length; k++) {
      AttributeConstraint x = ordered[k];
      AttributeConstraint y = c.ordered[k];
      boolean same =
          x instanceof IntConstraint i
              ? y instanceof IntConstraint j && IntConstraints.same(i, j)
              : x.equals(y);
      if (!same) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    return hash;
  }

  @Override
  public String toString() {
    return FilterPrinter.print(this);
  }
}
