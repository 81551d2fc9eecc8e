package org.netpubsub.compiler;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.netpubsub.compiler.rules.Rule;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterArbitraries;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterPrinter;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Schema;

/** Random rules over the content model's test schemas, and the ground truth they imply. */
final class CompilerFixtures {
  private CompilerFixtures() {}

  /** Rules with random filters (nesting ≤ 2) and 1–3 ports of 1..6; ids r0, r1, … */
  static Arbitrary<List<Rule>> rules(Schema schema, int max) {
    Arbitrary<int[]> ports =
        Arbitraries.integers()
            .between(1, 6)
            .set()
            .ofMinSize(1)
            .ofMaxSize(3)
            .map(s -> s.stream().mapToInt(Integer::intValue).toArray());
    Arbitrary<Rule> rule =
        Combinators.combine(FilterArbitraries.filters(schema, 2), ports)
            .as((f, p) -> new Rule("?", FilterPrinter.print(f), Normalizer.toDnf(f), p));
    return rule.list().ofMinSize(0).ofMaxSize(max).map(CompilerFixtures::numbered);
  }

  static List<Rule> numbered(List<Rule> rules) {
    List<Rule> out = new ArrayList<>();
    for (int i = 0; i < rules.size(); i++) {
      Rule r = rules.get(i);
      out.add(new Rule("r" + i, r.filter(), r.dnf(), r.ports()));
    }
    return out;
  }

  /** The ports of the rules whose filter matches the event, evaluated directly. */
  static int[] truth(List<Rule> rules, Event e) {
    TreeSet<Integer> out = new TreeSet<>();
    for (Rule r : rules) {
      if (FilterEvaluator.matches(r.dnf(), e)) {
        Arrays.stream(r.ports()).forEach(out::add);
      }
    }
    return out.stream().mapToInt(Integer::intValue).toArray();
  }
}
