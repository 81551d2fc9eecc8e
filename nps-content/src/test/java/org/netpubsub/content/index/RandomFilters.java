package org.netpubsub.content.index;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/**
 * Random filters and exhaustive event spaces over small domains, for brute-force tests. Strings
 * come from {@link #STRINGS}; constants also from outside it, so that some constraints match
 * nothing.
 */
final class RandomFilters {
  /** Every string value of the small event spaces (fits max_length 2; "é" is two bytes). */
  static final List<String> STRINGS = List.of("", "a", "b", "aa", "ab", "ba", "bb", "é");

  private static final List<String> CONSTANTS =
      List.of("", "a", "b", "aa", "ab", "ba", "bb", "é", "c", "abc", "\u00c3");

  private RandomFilters() {}

  /** 0..maxConjunctions conjunctions, each constraining each attribute with probability ½. */
  static Dnf dnf(Schema schema, SplittableRandom r, int maxConjunctions, int maxExcluded) {
    int n = r.nextInt(maxConjunctions + 1);
    List<Conjunction> cs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<AttributeConstraint> as = new ArrayList<>();
      for (Attribute a : schema.attributes()) {
        if (r.nextBoolean()) {
          as.add(constraint(schema, a, r, maxExcluded));
        }
      }
      cs.add(TestConjunction.of(as.toArray(new AttributeConstraint[0])));
    }
    return new Dnf(cs);
  }

  static AttributeConstraint constraint(
      Schema schema, Attribute a, SplittableRandom r, int maxExcluded) {
    return switch (a) {
      case IntAttribute i -> {
        // Mostly inside the domain, sometimes past its ends (clipped by the index).
        long lo = i.min() - 1 + r.nextLong(i.max() - i.min() + 3);
        long hi = i.min() - 1 + r.nextLong(i.max() - i.min() + 3);
        long[] excluded = new long[r.nextInt(maxExcluded + 1)];
        for (int k = 0; k < excluded.length; k++) {
          excluded[k] = Math.min(lo, hi) + r.nextLong(Math.abs(hi - lo) + 1);
        }
        yield TestConjunction.range(schema, i.name(), Math.min(lo, hi), Math.max(lo, hi), excluded);
      }
      case StringAttribute s -> {
        String c = CONSTANTS.get(r.nextInt(CONSTANTS.size()));
        String d = CONSTANTS.get(r.nextInt(CONSTANTS.size()));
        yield switch (r.nextInt(5)) {
          case 0 -> TestConjunction.equalTo(schema, s.name(), c);
          case 1 -> TestConjunction.prefixes(schema, s.name(), c);
          case 2 -> TestConjunction.prefixes(schema, s.name(), c, d);
          case 3 -> TestConjunction.suffixes(schema, s.name(), c);
          default -> TestConjunction.notEqualTo(schema, s.name(), c);
        };
      }
    };
  }

  /** Every event of a schema whose ints are small and whose strings come from STRINGS. */
  static List<Event> allEvents(Schema schema) {
    List<List<Object>> tuples = new ArrayList<>();
    tuples.add(List.of());
    for (Attribute a : schema.attributes()) {
      List<List<Object>> next = new ArrayList<>();
      for (List<Object> t : tuples) {
        for (Object v : values(a)) {
          List<Object> longer = new ArrayList<>(t);
          longer.add(v);
          next.add(longer);
        }
      }
      tuples = next;
    }
    List<Event> out = new ArrayList<>();
    for (List<Object> t : tuples) {
      Event.Builder b = Event.builder(schema);
      for (Attribute a : schema.attributes()) {
        Object v = t.get(a.position());
        if (v instanceof Long l) {
          b.set(a, l);
        } else {
          b.set(a, (String) v);
        }
      }
      out.add(b.build());
    }
    return out;
  }

  private static List<Object> values(Attribute a) {
    List<Object> out = new ArrayList<>();
    if (a instanceof IntAttribute i) {
      for (long v = i.min(); v <= i.max(); v++) {
        out.add(v);
      }
    } else {
      out.addAll(STRINGS);
    }
    return out;
  }
}
