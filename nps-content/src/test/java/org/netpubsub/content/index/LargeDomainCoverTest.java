package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.IntConstraint;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;

/**
 * Covers over domains too large to enumerate (full 64-bit, non-power-of-two spans above 2^60,
 * strings longer than the 8 indexed bytes): no false negatives at the places a bug would show — the
 * ends of every interval, their neighbours and the ends of the domain.
 */
class LargeDomainCoverTest {
  static final Schema BIG =
      Schema.builder("big")
          .intAttribute("a", Long.MIN_VALUE, Long.MAX_VALUE)
          .intAttribute("b", -1_000_000_000_000_000_000L, 1_000_000_000_000_000_000L)
          .intAttribute("c", 7, 1_000_000_000_007L)
          .stringAttribute("s", 12)
          .build();

  static final List<String> STRINGS =
      List.of("", "a", "abcdefgh", "abcdefghij", "abcdefghXY", "abcdefgi", "zzzzzzzzzzzz", "ab");

  @Property(tries = 200)
  void noFalseNegativesAtBoundaries(@ForAll long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    List<String> order = List.of("a", "b", "c", "s");
    List<String> index = new ArrayList<>(order);
    java.util.Collections.rotate(index, r.nextInt(4));
    Schema schema = BIG.withIndex(index.subList(0, 1 + r.nextInt(4)));
    Dnf dnf = randomDnf(schema, r);
    SpatialIndex spatial = new SpatialIndex(schema, 1 + r.nextInt(Dz.MAX_LENGTH));
    int budget = r.nextInt(10) == 0 ? Integer.MAX_VALUE : 1 + r.nextInt(200);
    DzSet cover = spatial.cover(dnf, budget);
    assertThat(cover.size()).isLessThanOrEqualTo(budget);

    List<List<Object>> candidates = candidates(schema, dnf, r);
    for (int n = 0; n < 300; n++) {
      Event.Builder b = Event.builder(schema);
      for (Attribute a : schema.attributes()) {
        List<Object> vs = candidates.get(a.position());
        Object v = vs.get(r.nextInt(vs.size()));
        if (v instanceof Long l) {
          b.set(a, l);
        } else {
          b.set(a, (String) v);
        }
      }
      Event e = b.build();
      if (ConjunctionMatch.matches(dnf, e)) {
        assertThat(cover.covers(spatial.dz(e)))
            .as("%s matches %s, cover %s, dz %s", e, dnf, cover, spatial.dz(e))
            .isTrue();
      }
    }
  }

  private static Dnf randomDnf(Schema schema, SplittableRandom r) {
    List<Conjunction> cs = new ArrayList<>();
    for (int i = r.nextInt(3); i >= 0; i--) {
      List<AttributeConstraint> as = new ArrayList<>();
      for (Attribute a : schema.attributes()) {
        if (r.nextInt(3) == 0) {
          continue;
        }
        if (a instanceof IntAttribute ia) {
          long x = randomIn(ia, r);
          long y = r.nextBoolean() ? x : randomIn(ia, r);
          long lo = Math.min(x, y);
          long hi = Math.max(x, y);
          long[] ex = new long[r.nextInt(3)];
          for (int k = 0; k < ex.length; k++) {
            ex[k] = lo + (hi - lo) / 2 + k; // inside, unless the range is tiny (then dropped)
          }
          as.add(TestConjunction.range(schema, a.name(), lo, hi, ex));
        } else {
          String c = STRINGS.get(r.nextInt(STRINGS.size()));
          as.add(
              r.nextBoolean()
                  ? TestConjunction.equalTo(schema, a.name(), c)
                  : TestConjunction.prefixes(schema, a.name(), c));
        }
      }
      cs.add(TestConjunction.of(as.toArray(new AttributeConstraint[0])));
    }
    return new Dnf(cs);
  }

  /** Near a domain end, near zero, or anywhere. */
  private static long randomIn(IntAttribute a, SplittableRandom r) {
    return switch (r.nextInt(4)) {
      case 0 -> a.min() + r.nextInt(3);
      case 1 -> a.max() - r.nextInt(3);
      case 2 -> Math.max(a.min(), Math.min(a.max(), r.nextLong(-5, 5)));
      default -> Math.max(a.min(), Math.min(a.max(), r.nextLong()));
    };
  }

  /** Per attribute: every interval end, its neighbours, the domain ends; strings from STRINGS. */
  private static List<List<Object>> candidates(Schema schema, Dnf dnf, SplittableRandom r) {
    List<List<Object>> out = new ArrayList<>();
    for (Attribute a : schema.attributes()) {
      List<Object> vs = new ArrayList<>();
      if (a instanceof IntAttribute ia) {
        vs.add(ia.min());
        vs.add(ia.max());
        for (Conjunction c : dnf.conjunctions()) {
          if (c.constraint(a.position()).orElse(null) instanceof IntConstraint ic) {
            for (long p : new long[] {ic.low(), ic.high()}) {
              if (ia.contains(p)) {
                vs.add(p);
              }
              if (p > ia.min()) {
                vs.add(p - 1);
              }
              if (p < ia.max()) {
                vs.add(p + 1);
              }
            }
            for (long x : ic.excluded()) {
              vs.add(x);
              vs.add(x + 1);
            }
          }
        }
        vs.add(randomIn(ia, r));
      } else {
        vs.addAll(STRINGS);
      }
      out.add(vs);
    }
    return out;
  }
}
