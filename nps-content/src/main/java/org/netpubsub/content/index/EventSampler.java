package org.netpubsub.content.index;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.AttributeConstraint;
import org.netpubsub.content.filter.Conjunction;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.StringConstraint;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/**
 * Seeded random events for estimates. Ints are uniform over their domain. Strings cannot be uniform
 * in any useful sense (the space is astronomically large and almost nothing would equal a filter's
 * constant), so: half of the time a random string of length 0..max_length over {@value #ALPHABET},
 * half of the time one of the filter's own string constants on that attribute, with random letters
 * before and/or after it (each present half of the time) — so equality, prefix, suffix and contains
 * all get weight.
 */
final class EventSampler {
  static final String ALPHABET = "abcd";

  private final Schema schema;
  private final SplittableRandom random;
  private final List<List<String>> constants = new ArrayList<>();

  EventSampler(Schema schema, Dnf dnf, long seed) {
    this.schema = schema;
    this.random = new SplittableRandom(seed);
    for (int p = 0; p < schema.size(); p++) {
      constants.add(new ArrayList<>());
    }
    for (Conjunction c : dnf.conjunctions()) {
      for (AttributeConstraint a : c.constraints()) {
        if (a instanceof StringConstraint s) {
          List<String> out = constants.get(s.attribute().position());
          if (s.equalTo() != null) {
            out.add(s.equalTo());
          }
          for (var set :
              List.of(
                  s.notEqualTo(),
                  s.prefixes(),
                  s.suffixes(),
                  s.contains(),
                  s.notPrefixes(),
                  s.notSuffixes(),
                  s.notContains(),
                  s.patterns(),
                  s.notPatterns())) {
            out.addAll(set);
          }
        }
      }
    }
  }

  Event next() {
    Event.Builder b = Event.builder(schema);
    for (Attribute a : schema.attributes()) {
      switch (a) {
        case IntAttribute i -> b.set(i, randomInt(i));
        case StringAttribute s when s.isTopic() -> b.set(s, randomTopic(s));
        case StringAttribute s -> b.set(s, randomString(s));
      }
    }
    return b.build();
  }

  private long randomInt(IntAttribute a) {
    long sizeMinus1 = a.max() - a.min();
    if (sizeMinus1 == -1L) {
      return random.nextLong();
    }
    if (sizeMinus1 >= 0 && sizeMinus1 < Long.MAX_VALUE) {
      return a.min() + random.nextLong(sizeMinus1 + 1);
    }
    long v; // more than 2^63 values: rejection, accepting at least half of the draws
    do {
      v = random.nextLong();
    } while (Long.compareUnsigned(v, sizeMinus1) > 0);
    return a.min() + v;
  }

  private String randomString(StringAttribute a) {
    int max = a.maxLength();
    List<String> own = constants.get(a.position());
    if (!own.isEmpty() && random.nextBoolean()) {
      String c = own.get(random.nextInt(own.size()));
      int room = max - c.getBytes(StandardCharsets.UTF_8).length;
      if (room >= 0) {
        String before = room > 0 && random.nextBoolean() ? letters(1 + random.nextInt(room)) : "";
        room -= before.length();
        String after = room > 0 && random.nextBoolean() ? letters(1 + random.nextInt(room)) : "";
        return before + c + after;
      }
    }
    return letters(random.nextInt(max + 1));
  }

  /**
   * A topic name: half of the time one of the filters' constants with its wildcards filled in
   * ({@code +} one level, {@code #} none to two), else 1 to levels random levels of 1 to 2 letters.
   */
  private String randomTopic(StringAttribute a) {
    List<String> own = constants.get(a.position());
    if (!own.isEmpty() && random.nextBoolean()) {
      StringBuilder t = new StringBuilder();
      for (String level : own.get(random.nextInt(own.size())).split("/", -1)) {
        int n = level.equals("#") ? random.nextInt(3) : 1;
        for (int i = 0; i < n; i++) {
          t.append(t.isEmpty() ? "" : "/")
              .append(level.equals("+") || level.equals("#") ? letters(1) : level);
        }
      }
      String v = t.toString();
      if (a.fits(v) && a.topicProblem(v) == null) {
        return v;
      }
    }
    StringBuilder t = new StringBuilder(letters(1 + random.nextInt(2)));
    for (int i = 1 + random.nextInt(a.levels()); i > 1; i--) {
      t.append('/').append(letters(1 + random.nextInt(2)));
    }
    String v = t.toString();
    while (!a.fits(v)) {
      v = v.substring(0, v.lastIndexOf('/') < 0 ? 1 : v.lastIndexOf('/'));
    }
    return v;
  }

  private String letters(int n) {
    StringBuilder sb = new StringBuilder(n);
    for (int i = 0; i < n; i++) {
      sb.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
    }
    return sb.toString();
  }
}
