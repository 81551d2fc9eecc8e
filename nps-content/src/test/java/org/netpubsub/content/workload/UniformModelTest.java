package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.IntAttribute;

class UniformModelTest {
  private static Workload generate(IntSpace space, int subscriptions, long events, int hosts) {
    return new UniformModel(space)
        .generate(
            new WorkloadSpec(
                2024, subscriptions, events, hosts, HostAssignment.ROUND_ROBIN, Arrival.NONE));
  }

  @Test
  void schemaIsPleromasIntSpace() {
    UniformModel m = new UniformModel(new IntSpace(3, 1024, 0.25, 1));
    assertThat(m.schema().attributes())
        .containsExactly(
            new IntAttribute("a0", 0, 0, 1023),
            new IntAttribute("a1", 1, 0, 1023),
            new IntAttribute("a2", 2, 0, 1023));
  }

  @Test
  void eventsAreUniformPerAttribute() {
    int n = 40_000;
    Workload w = generate(new IntSpace(3, 1024, 0.25, 1), 0, n, 1);
    double[] sum = new double[3];
    int[][] quarter = new int[3][4];
    Iterator<Event> it = w.eventIterator();
    while (it.hasNext()) {
      Event e = it.next();
      for (int a = 0; a < 3; a++) {
        long v = e.intValue(a);
        sum[a] += v;
        quarter[a][(int) (v / 256)]++;
      }
    }
    for (int a = 0; a < 3; a++) {
      // mean (D-1)/2 = 511.5; the standard error is about 1.5
      assertThat(sum[a] / n).isCloseTo(511.5, within(6.0));
      for (int q = 0; q < 4; q++) {
        assertThat(quarter[a][q] / (double) n).isCloseTo(0.25, within(0.01));
      }
    }
  }

  @Test
  void everyAttributeIsAConstrainedRangeByDefault() {
    Workload w = generate(new IntSpace(4, 1024, 0.25, 1), 2000, 0, 4);
    double widthSum = 0;
    for (Subscription s : w.subscriptions()) {
      Constraints c = Constraints.parse(s.filter());
      assertThat(c.disjuncts()).hasSize(1);
      assertThat(c.all())
          .extracting(Constraints.Constraint::attribute)
          .containsExactly("a0", "a1", "a2", "a3");
      for (Constraints.Constraint r : c.all()) {
        assertThat(r.op()).isEqualTo("in");
        long width = r.high() - r.value() + 1;
        assertThat(width).isBetween(1L, 256L);
        assertThat(r.value()).isGreaterThanOrEqualTo(0);
        assertThat(r.high()).isLessThanOrEqualTo(1023);
        widthSum += width;
      }
    }
    // widths uniform in [1, 256]: mean 128.5
    assertThat(widthSum / (2000 * 4)).isCloseTo(128.5, within(3.0));
  }

  @Test
  void constrainProbabilityLeavesAttributesOutButNeverAll() {
    int n = 5000;
    Workload w = generate(new IntSpace(4, 1024, 0.1, 0.5), n, 0, 4);
    long constrained = 0;
    for (Subscription s : w.subscriptions()) {
      int k = Constraints.parse(s.filter()).all().size();
      assertThat(k).isBetween(1, 4);
      constrained += k;
    }
    // E[k] = 4 * 0.5 + P(none) * 1 = 2 + 1/16
    assertThat(constrained / (double) n).isCloseTo(2.0625, within(0.05));
  }

  @Test
  void roundRobinDividesEqually() {
    Workload w = generate(IntSpace.defaults(), 160, 0, 16);
    Map<String, Integer> perHost = new HashMap<>();
    for (Subscription s : w.subscriptions()) {
      assertThat(s.ports()).isEmpty();
      perHost.merge(s.host().orElseThrow(), 1, Integer::sum);
    }
    assertThat(perHost).hasSize(16).allSatisfy((h, c) -> assertThat(c).isEqualTo(10));
    assertThat(w.subscriptions().get(0).host()).contains("h1");
    assertThat(w.subscriptions().get(15).host()).contains("h16");
  }

  @Test
  void domainOfOneAndNarrowWidths() {
    Workload w = generate(new IntSpace(2, 1, 0.25, 1), 10, 10, 1);
    assertThat(w.subscriptions())
        .allSatisfy(s -> assertThat(s.filter()).isEqualTo("a0 in [0, 0] && a1 in [0, 0]"));
    assertThat(w.events()).allSatisfy(e -> assertThat(e.intValue(1)).isZero());
  }

  @Property(tries = 200)
  void filtersAndEventsStayInTheDomain(
      @ForAll @IntRange(min = 1, max = 10) int attributes,
      @ForAll @LongRange(min = 1, max = 1L << 40) long domain,
      @ForAll @DoubleRange(min = 0.01, max = 1) double maxWidth,
      @ForAll @DoubleRange(min = 0.01, max = 1) double constrainProb,
      @ForAll long seed) {
    UniformModel m = new UniformModel(new IntSpace(attributes, domain, maxWidth, constrainProb));
    Workload w = m.generate(new WorkloadSpec(seed, 20, 20, 3, HostAssignment.RANDOM, Arrival.NONE));
    for (Subscription s : w.subscriptions()) {
      Constraints.parse(s.filter()).checkAgainst(m.schema());
      assertThat(s.host().orElseThrow()).isIn("h1", "h2", "h3");
    }
    assertThat(w.events().count()).isEqualTo(20); // building validates every value
  }

  @Test
  void rejectsBadSpaces() {
    assertThatThrownBy(() -> new IntSpace(0, 1024, 0.25, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("attributes");
    assertThatThrownBy(() -> new IntSpace(11, 1024, 0.25, 1))
        .hasMessageContaining("attributes must be in [1, 10]");
    assertThatThrownBy(() -> new IntSpace(2, 0, 0.25, 1)).hasMessageContaining("domain");
    assertThatThrownBy(() -> new IntSpace(2, 1024, 0, 1)).hasMessageContaining("max width");
    assertThatThrownBy(() -> new IntSpace(2, 1024, 0.2, 1.5)).hasMessageContaining("constrain");
  }
}
