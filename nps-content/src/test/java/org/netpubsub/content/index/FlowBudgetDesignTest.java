package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.TopicModel;
import org.netpubsub.content.workload.Workload;
import org.netpubsub.content.workload.WorkloadSpec;

/**
 * Designing for a flow budget (docs/content-model.md, "Designing for a flow budget"): {@link
 * HostUnionScore} against a naive twin, and layouts designed under a budget lose no matching event.
 */
class FlowBudgetDesignTest {
  private record Sample(Schema schema, List<Event> events, List<Dnf> filters) {}

  private static Sample topics(long seed, int subscriptions, int events) {
    TopicModel m = new TopicModel();
    Workload w =
        m.generate(
            new WorkloadSpec(
                seed, subscriptions, events, 4, HostAssignment.ROUND_ROBIN, Arrival.NONE));
    List<Dnf> filters =
        w.subscriptions().stream()
            .map(s -> Normalizer.toDnf(FilterParser.parse(m.schema(), s.filter())))
            .toList();
    return new Sample(m.schema(), w.events().toList(), filters);
  }

  /**
   * The naive twin: hosts as consecutive groups, each group's union merged to its budget by the
   * even events, and every odd event checked against every cell and every filter.
   */
  private static long naive(
      Sample s, SpatialIndex index, HostBudget budget, int maxCells, int groupSize) {
    List<Dz> weights = new ArrayList<>();
    for (int e = 0; e < s.events().size(); e += 2) {
      weights.add(index.dz(s.events().get(e)));
    }
    long fp = 0;
    for (int from = 0; from < s.filters().size(); from += groupSize) {
      List<Dnf> host = s.filters().subList(from, Math.min(s.filters().size(), from + groupSize));
      DzSet cells = DzSet.EMPTY;
      for (Dnf f : host) {
        cells = cells.union(index.cover(f, maxCells));
      }
      int flows = budget.flowsFor(host.size());
      if (cells.size() > flows) {
        cells = FlowBudget.merge(cells, flows, weights);
      }
      assertThat(cells.size()).isLessThanOrEqualTo(flows);
      for (int e = 1; e < s.events().size(); e += 2) {
        Event ev = s.events().get(e);
        Dz d = index.dz(ev);
        boolean received = cells.members().stream().anyMatch(c -> c.covers(d));
        boolean wanted = host.stream().anyMatch(f -> FilterEvaluator.matches(f, ev));
        fp += received && !wanted ? 1 : 0;
      }
    }
    return fp;
  }

  /** One workload for every try (generating the model's topic universe is the slow part). */
  private static final Sample TWIN = topics(3, 160, 120);

  @Property(tries = 8)
  void hostUnionScoreEqualsItsNaiveTwin(
      @ForAll @IntRange(min = 0, max = 80) int from,
      @ForAll @IntRange(min = 5, max = 50) int perHost,
      @ForAll @IntRange(min = 1, max = 40) int flows,
      @ForAll @IntRange(min = 4, max = 28) int length) {
    Sample s = new Sample(TWIN.schema(), TWIN.events(), TWIN.filters().subList(from, from + 80));
    FalsePositiveSample sample = new FalsePositiveSample(s.events(), s.filters());
    HostBudget budget = new HostBudget(perHost, flows);
    SpatialIndex index = new SpatialIndex(s.schema(), length);
    long[][] offsets = new long[s.events().size()][];
    for (int e = 0; e < offsets.length; e++) {
      offsets[e] = index.offsets(s.events().get(e));
    }
    HostUnionScore score = new HostUnionScore(sample, budget, 16);
    assertThat(score.falsePositives(index, offsets))
        .isEqualTo(naive(s, index, budget, 16, perHost));
    assertThat(score.hosts()).isEqualTo((80 + perHost - 1) / perHost);
  }

  @Test
  void aSampleSmallerThanOneHostGetsItsShareOfTheFlows() {
    assertThat(new HostBudget(1250, 224).flowsFor(500)).isEqualTo(89);
    assertThat(new HostBudget(100, 256).flowsFor(100)).isEqualTo(256);
    assertThat(new HostBudget(10_000, 3).flowsFor(1)).isEqualTo(1);
    assertThatThrownBy(() -> new HostBudget(0, 5))
        .hasMessageContaining("subscriptions per host must be at least 1");
    assertThatThrownBy(() -> new HostBudget(5, 0)).hasMessageContaining("max flows");
  }

  @Test
  void aLayoutDesignedForAFlowBudgetCoversEveryMatchingEventAndIsDeterministic() {
    Sample s = topics(7, 150, 300);
    FalsePositiveSample sample = new FalsePositiveSample(s.events(), s.filters());
    HostBudget budget = new HostBudget(50, 24);
    LayoutDesigner.Design d = LayoutDesigner.design(s.schema(), sample, 20, 16, budget);
    LayoutDesigner.Design again = LayoutDesigner.design(s.schema(), sample, 20, 16, budget);
    assertThat(again.schema().layout()).isEqualTo(d.schema().layout());
    SpatialIndex index = new SpatialIndex(d.schema(), d.length());
    Sample other = topics(8, 150, 300); // other filters and events of the model
    int matches = 0;
    for (Dnf f : concat(s.filters(), other.filters())) {
      DzSet cover = index.cover(f, 16);
      for (Event e : concat(s.events(), other.events())) {
        if (FilterEvaluator.matches(f, e)) {
          matches++;
          assertThat(cover.covers(index.dz(e))).as("%s covers %s", f, e).isTrue();
        }
      }
    }
    assertThat(matches).isGreaterThan(100);
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }
}
