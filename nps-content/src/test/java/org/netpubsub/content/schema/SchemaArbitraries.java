package org.netpubsub.content.schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/** jqwik generators of valid schemas: names, domains at the 64-bit edges, optional index. */
public final class SchemaArbitraries {
  private SchemaArbitraries() {}

  /** Longs biased towards the edges where overflow bugs live. */
  public static Arbitrary<Long> edgyLongs() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, Arbitraries.longs()),
        net.jqwik.api.Tuple.of(
            2,
            Arbitraries.of(
                Long.MIN_VALUE,
                Long.MIN_VALUE + 1,
                -1L,
                0L,
                1L,
                Long.MAX_VALUE - 1,
                Long.MAX_VALUE)),
        net.jqwik.api.Tuple.of(2, Arbitraries.longs().between(-1000, 1000)));
  }

  public static Arbitrary<String> attributeNames() {
    Arbitrary<String> segment =
        Combinators.combine(
                Arbitraries.strings().withCharRange('a', 'z').withChars('_', 'Q').ofLength(1),
                Arbitraries.strings()
                    .withCharRange('a', 'z')
                    .withCharRange('0', '9')
                    .withChars('_', 'X')
                    .ofMaxLength(6))
            .as(String::concat);
    return segment
        .list()
        .ofMinSize(1)
        .ofMaxSize(3)
        .map(l -> String.join(".", l))
        .filter(AttributeNames::isValid);
  }

  public static Arbitrary<String> schemaNames() {
    return Combinators.combine(
            Arbitraries.strings()
                .withCharRange('a', 'z')
                .withCharRange('0', '9')
                .withChars('_')
                .ofLength(1),
            Arbitraries.strings()
                .withCharRange('a', 'z')
                .withCharRange('A', 'Z')
                .withCharRange('0', '9')
                .withChars('_', '.', '-')
                .ofMaxLength(12))
        .as(String::concat);
  }

  /** Schemas of 1..{@code maxAttributes} attributes; string max_length up to {@code maxLength}. */
  public static Arbitrary<Schema> schemas(int maxAttributes, int maxLength) {
    Arbitrary<long[]> domains =
        Combinators.combine(edgyLongs(), edgyLongs())
            .as((a, b) -> new long[] {Math.min(a, b), Math.max(a, b)});
    Arbitrary<Integer> lengths =
        Arbitraries.frequencyOf(
            net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(0, maxLength)),
            net.jqwik.api.Tuple.of(1, Arbitraries.of(0, maxLength)));
    // One spec per attribute: a domain for an int, or a max_length (domain null) for a string.
    Arbitrary<Object> spec =
        Arbitraries.oneOf(domains.map(d -> (Object) d), lengths.map(l -> (Object) l));
    return Combinators.combine(
            schemaNames(),
            attributeNames().list().ofMinSize(1).ofMaxSize(maxAttributes).uniqueElements(),
            spec.list().ofSize(maxAttributes),
            Arbitraries.longs(),
            Arbitraries.of(true, false))
        .as(
            (name, names, specs, seed, withIndex) -> {
              Schema.Builder b = Schema.builder(name);
              for (int i = 0; i < names.size(); i++) {
                if (specs.get(i) instanceof long[] d) {
                  b.intAttribute(names.get(i), d[0], d[1]);
                } else {
                  b.stringAttribute(names.get(i), (Integer) specs.get(i));
                }
              }
              if (withIndex) {
                List<String> index = new ArrayList<>(names);
                Random random = new Random(seed);
                Collections.shuffle(index, random);
                b.index(index.subList(0, 1 + random.nextInt(index.size())));
              }
              return b.build();
            });
  }
}
