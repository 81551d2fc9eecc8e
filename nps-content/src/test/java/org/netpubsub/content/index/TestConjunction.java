package org.netpubsub.content.index;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.IntConstraint;
import org.netpubsub.content.filter.StringConstraint;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/** A test-only conjunction built constraint by constraint (the parser is someone else's part). */
final class TestConjunction implements Conjunction {
  private final SortedMap<Integer, AttributeConstraint> byPosition = new TreeMap<>();

  static TestConjunction of(AttributeConstraint... constraints) {
    TestConjunction c = new TestConjunction();
    for (AttributeConstraint a : constraints) {
      c.byPosition.put(a.attribute().position(), a);
    }
    return c;
  }

  static Dnf dnf(Conjunction... conjunctions) {
    return new Dnf(List.of(conjunctions));
  }

  /** {@code name in [low, high]} minus the excluded points (made canonical here). */
  static IntConstraint range(Schema schema, String name, long low, long high, long... excluded) {
    IntAttribute a = (IntAttribute) schema.attribute(name).orElseThrow();
    long[] inside = Arrays.stream(excluded).filter(e -> e > low && e < high).distinct().toArray();
    Arrays.sort(inside);
    return new IntConstraint(a, low, high, inside);
  }

  static StringConstraint equalTo(Schema schema, String name, String value) {
    return string(schema, name, value, List.of(), List.of(), List.of());
  }

  static StringConstraint prefixes(Schema schema, String name, String... prefixes) {
    return string(schema, name, null, List.of(prefixes), List.of(), List.of());
  }

  static StringConstraint suffixes(Schema schema, String name, String... suffixes) {
    return string(schema, name, null, List.of(), List.of(suffixes), List.of());
  }

  static StringConstraint notEqualTo(Schema schema, String name, String... values) {
    return string(schema, name, null, List.of(), List.of(), List.of(values));
  }

  private static StringConstraint string(
      Schema schema,
      String name,
      String equalTo,
      List<String> prefixes,
      List<String> suffixes,
      List<String> notEqualTo) {
    StringAttribute a = (StringAttribute) schema.attribute(name).orElseThrow();
    return new StringConstraint(
        a,
        equalTo,
        new TreeSet<>(notEqualTo),
        new TreeSet<>(prefixes),
        new TreeSet<>(suffixes),
        new TreeSet<>(),
        new TreeSet<>(),
        new TreeSet<>(),
        new TreeSet<>(),
        new TreeSet<>(),
        new TreeSet<>());
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
  public List<Filter.Aggregate> aggregates() {
    return List.of();
  }

  @Override
  public String toString() {
    return byPosition.values().toString();
  }
}
