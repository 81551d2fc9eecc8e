package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.StringAttribute;

class SsbgModelTest {
  private static List<Constraints> filters(SsbgModel m, int n) {
    return m
        .generate(new WorkloadSpec(8, n, 0, 16, HostAssignment.ROUND_ROBIN, Arrival.NONE))
        .subscriptions()
        .stream()
        .map(s -> Constraints.parse(s.filter()))
        .toList();
  }

  @Test
  void schemaAlternatesIntsAndStrings() {
    SsbgModel m = new SsbgModel();
    assertThat(m.schema().size()).isEqualTo(10);
    assertThat(m.schema().attribute(0)).isEqualTo(new IntAttribute("x0", 0, -100, 99));
    assertThat(m.schema().attribute(1)).isEqualTo(new StringAttribute("x1", 1, 9));
    assertThat(m.schema().attribute(9)).isInstanceOf(StringAttribute.class);
  }

  @Test
  void operatorFrequenciesFollowTheWeights() {
    Map<String, Integer> intOps = new HashMap<>();
    Map<String, Integer> stringOps = new HashMap<>();
    int ints = 0;
    int strings = 0;
    for (Constraints c : filters(new SsbgModel(), 16_000)) {
      for (Constraints.Constraint k : c.all()) {
        if (k.text() == null) {
          intOps.merge(k.op(), 1, Integer::sum);
          ints++;
        } else {
          stringOps.merge(k.op(), 1, Integer::sum);
          strings++;
        }
      }
    }
    assertThat(ints).isGreaterThan(20_000);
    assertThat(strings).isGreaterThan(15_000);
    assertThat(intOps.get("==") / (double) ints).isCloseTo(0.40, within(0.03));
    assertThat(intOps.get("<") / (double) ints).isCloseTo(0.25, within(0.03));
    assertThat(intOps.get(">") / (double) ints).isCloseTo(0.25, within(0.03));
    assertThat(intOps.get("!=") / (double) ints).isCloseTo(0.10, within(0.03));
    assertThat(intOps).containsOnlyKeys("==", "<", ">", "!=");
    assertThat(stringOps.get("==") / (double) strings).isCloseTo(0.50, within(0.03));
    for (String op : List.of("prefix", "suffix", "contains", "!=")) {
      assertThat(stringOps.get(op) / (double) strings).as(op).isCloseTo(0.125, within(0.03));
    }
  }

  @Test
  void constraintsPerConjunctionFollowTheWeights() {
    int n = 20_000;
    int[] sizes = new int[11];
    for (Constraints c : filters(new SsbgModel(), n)) {
      assertThat(c.disjuncts()).hasSize(1); // no disjunctions by default
      sizes[c.all().size()]++;
    }
    double[] expected = {0, 0.10, 0.40, 0.30, 0.10, 0.05, 0.05};
    for (int k = 1; k <= 6; k++) {
      assertThat(sizes[k] / (double) n).as("size %d", k).isCloseTo(expected[k], within(0.03));
    }
    assertThat(sizes[0] + sizes[7] + sizes[8]).isZero();
  }

  @Test
  void disjunctionsAreOnePlusPoisson() {
    int n = 4000;
    long total = 0;
    for (Constraints c : filters(new SsbgModel(10, 2.0, SsbgModel.AttributeChoice.ZIPF), n)) {
      total += c.disjuncts().size();
    }
    assertThat(total / (double) n).isCloseTo(3.0, within(3.0 * 0.05));
  }

  @Test
  void zipfAttributeChoicePrefersLowIndices() {
    Map<String, Integer> zipf = attributeCounts(SsbgModel.AttributeChoice.ZIPF);
    for (int i = 0; i < 5; i++) {
      assertThat(zipf.get("x" + i)).isGreaterThan(zipf.get("x" + (i + 1)));
    }
    Map<String, Integer> uniform = attributeCounts(SsbgModel.AttributeChoice.UNIFORM);
    int min = uniform.values().stream().min(Integer::compare).orElseThrow();
    int max = uniform.values().stream().max(Integer::compare).orElseThrow();
    assertThat(max / (double) min).isLessThan(1.1);
  }

  private static Map<String, Integer> attributeCounts(SsbgModel.AttributeChoice choice) {
    Map<String, Integer> counts = new HashMap<>();
    for (Constraints c : filters(new SsbgModel(10, 0, choice), 5000)) {
      for (Constraints.Constraint k : c.all()) {
        counts.merge(k.attribute(), 1, Integer::sum);
      }
    }
    return counts;
  }

  @Test
  void conjunctionsConstrainDistinctAttributesCappedAtN() {
    for (Constraints c : filters(new SsbgModel(3, 1.0, SsbgModel.AttributeChoice.ZIPF), 2000)) {
      for (List<Constraints.Constraint> conj : c.disjuncts()) {
        assertThat(conj).hasSizeBetween(1, 3);
        assertThat(conj.stream().map(Constraints.Constraint::attribute).distinct().count())
            .isEqualTo(conj.size());
      }
    }
  }

  @Test
  void stringConstantsComeFromTheWords() {
    List<String> words = Words.all();
    for (Constraints c : filters(new SsbgModel(), 3000)) {
      for (Constraints.Constraint k : c.all()) {
        if (k.text() == null) {
          continue;
        }
        String t = k.text();
        switch (k.op()) {
          case "==", "!=" -> assertThat(words).contains(t);
          case "prefix" -> assertThat(words).anyMatch(w -> w.startsWith(t));
          case "suffix" -> assertThat(words).anyMatch(w -> w.endsWith(t));
          default -> assertThat(words).anyMatch(w -> w.contains(t));
        }
        assertThat(t).isNotEmpty();
      }
    }
  }

  @Test
  void eventsCarryEveryAttributeWithWeightedInterestingStrings() {
    SsbgModel m = new SsbgModel();
    Set<String> words = new HashSet<>(Words.all());
    int n = 20_000;
    int the = 0;
    int strings = 0;
    var it =
        m.generate(new WorkloadSpec(3, 0, n, 1, HostAssignment.ROUND_ROBIN, Arrival.NONE))
            .eventIterator();
    while (it.hasNext()) {
      var e = it.next();
      for (int i = 1; i < 10; i += 2) {
        if (!words.contains(e.stringValue(i))) {
          throw new AssertionError("not a word: " + e.stringValue(i));
        }
        strings++;
        if (e.stringValue(i).equals("the")) {
          the++;
        }
      }
      for (int i = 0; i < 10; i += 2) {
        if (e.intValue(i) < -100 || e.intValue(i) > 99) {
          throw new AssertionError("out of domain: " + e);
        }
      }
    }
    // Uniform words alone would give 1/187 ≈ 0.5 %; Zipf-weighted interesting values raise "the".
    assertThat(the / (double) strings).isGreaterThan(0.03);
  }

  @Test
  void rejectsBadParameters() {
    assertThatThrownBy(() -> new SsbgModel(0, 0, SsbgModel.AttributeChoice.ZIPF))
        .hasMessageContaining("attributes");
    assertThatThrownBy(() -> new SsbgModel(10, -1, SsbgModel.AttributeChoice.ZIPF))
        .hasMessageContaining("disjunctions");
    assertThatThrownBy(() -> SsbgModel.AttributeChoice.parse("pareto"))
        .hasMessageContaining("zipf or uniform");
  }
}
