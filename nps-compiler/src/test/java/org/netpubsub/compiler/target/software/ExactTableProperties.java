package org.netpubsub.compiler.target.software;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The open-addressing table against a HashMap, keys skewed like padded ITCH symbols. */
class ExactTableProperties {
  record Put(int state, long value, int next) {}

  @Property(tries = 300)
  void behavesAsAMap(@ForAll("puts") List<Put> puts, @ForAll("keys") List<Put> probes) {
    ExactTable t = new ExactTable(1);
    Map<List<Long>, Integer> m = new HashMap<>();
    for (Put p : puts) {
      t.put(p.state(), p.value(), p.next());
      m.put(List.of((long) p.state(), p.value()), p.next());
    }
    for (Put p : puts) {
      assertThat(t.get(p.state(), p.value()))
          .isEqualTo(m.get(List.of((long) p.state(), p.value())));
    }
    for (Put p : probes) {
      assertThat(t.get(p.state(), p.value()))
          .isEqualTo(m.getOrDefault(List.of((long) p.state(), p.value()), -1));
    }
  }

  @Provide
  Arbitrary<List<Put>> puts() {
    return entries(300);
  }

  @Provide
  Arbitrary<List<Put>> keys() {
    return entries(50);
  }

  static Arbitrary<List<Put>> entries(int max) {
    // short symbols padded with spaces share their low bytes: the case a weak hash chains
    Arbitrary<Long> padded =
        Arbitraries.strings()
            .withCharRange('A', 'Z')
            .ofMinLength(1)
            .ofMaxLength(8)
            .map(
                s -> {
                  long v = 0;
                  for (int i = 0; i < 8; i++) {
                    v = v << 8 | (i < s.length() ? s.charAt(i) : ' ');
                  }
                  return v;
                });
    return Combinators.combine(
            Arbitraries.integers().between(0, 5),
            Arbitraries.oneOf(padded, Arbitraries.longs()),
            Arbitraries.integers().between(0, 1000))
        .as(Put::new)
        .list()
        .ofMaxSize(max);
  }
}
