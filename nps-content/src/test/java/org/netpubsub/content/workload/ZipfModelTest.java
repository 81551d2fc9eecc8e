package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;

class ZipfModelTest {
  private static Workload generate(
      ZipfModel m, int subscriptions, long events, int hosts, HostAssignment assignment) {
    return m.generate(new WorkloadSpec(31, subscriptions, events, hosts, assignment, Arrival.NONE));
  }

  private static List<Long> point(Event e) {
    List<Long> p = new ArrayList<>();
    for (int i = 0; i < e.schema().size(); i++) {
      p.add(e.intValue(i));
    }
    return p;
  }

  @Test
  void zeroSpreadPinsEventsToHotspotsWithZipfPopularity() {
    ZipfModel m = new ZipfModel(new IntSpace(3, 1024, 0.25, 1), 4, 1.0, List.of(0.0));
    int n = 40_000;
    Map<List<Long>, Integer> counts = new HashMap<>();
    m.generate(new WorkloadSpec(31, 0, n, 4, HostAssignment.HOTSPOT, Arrival.NONE))
        .events()
        .forEach(e -> counts.merge(point(e), 1, Integer::sum));
    assertThat(counts).hasSize(4); // four distinct hotspots (collisions are ~1e-8 likely)
    List<Integer> sorted = counts.values().stream().sorted(Comparator.reverseOrder()).toList();
    Zipf zipf = new Zipf(4, 1.0);
    for (int r = 1; r <= 4; r++) {
      assertThat(sorted.get(r - 1) / (double) n).isCloseTo(zipf.probability(r), within(0.01));
    }
  }

  @Test
  void perAttributeSpreadRestrictsOnlyThatDimension() {
    ZipfModel m = new ZipfModel(new IntSpace(2, 1024, 0.25, 1), 3, 1.0, List.of(1.0, 0.0));
    Set<Long> a0 = new HashSet<>();
    Set<Long> a1 = new HashSet<>();
    generate(m, 0, 5000, 4, HostAssignment.HOTSPOT)
        .events()
        .forEach(
            e -> {
              a0.add(e.intValue(0));
              a1.add(e.intValue(1));
            });
    assertThat(a1).hasSizeLessThanOrEqualTo(3);
    assertThat(a0).hasSizeGreaterThan(300);
  }

  @Test
  void eventsConcentrateAroundTheHotspot() {
    // One hotspot, s = 1, spread 0.05: offsets are Zipf over the 52 distances 0..51, so values
    // cover at most 103 points and the mode (the hotspot) has P(offset 0) = 1/H(52). This seed's
    // hotspot lies more than 51 from either edge, so clamping does not pile mass onto an edge.
    ZipfModel m = new ZipfModel(new IntSpace(1, 1024, 0.25, 1), 1, 1.0, List.of(0.05));
    Map<Long, Integer> counts = new HashMap<>();
    int n = 20_000;
    generate(m, 0, n, 1, HostAssignment.HOTSPOT)
        .events()
        .forEach(e -> counts.merge(e.intValue(0), 1, Integer::sum));
    assertThat(counts.size()).isLessThanOrEqualTo(2 * 51 + 1);
    int top = counts.values().stream().max(Integer::compare).orElseThrow();
    Zipf distances = new Zipf(52, 1.0);
    assertThat(top / (double) n).isCloseTo(distances.probability(1), within(0.015));
  }

  @Test
  void eachHostSubscribesAroundItsOwnHotspot() {
    // With zero spread a subscription's ranges all contain its hotspot, recoverable from events.
    ZipfModel m = new ZipfModel(new IntSpace(2, 1024, 0.05, 1), 4, 1.0, List.of(0.0));
    Workload w = generate(m, 400, 2000, 8, HostAssignment.HOTSPOT);
    Set<List<Long>> hotspots = new HashSet<>();
    w.events().forEach(e -> hotspots.add(point(e)));
    assertThat(hotspots).hasSize(4);
    Map<String, List<Subscription>> byHost = new HashMap<>();
    for (Subscription s : w.subscriptions()) {
      byHost.computeIfAbsent(s.host().orElseThrow(), h -> new ArrayList<>()).add(s);
    }
    Map<List<Long>, Integer> perHotspot = new HashMap<>();
    for (var entry : byHost.entrySet()) {
      List<List<Long>> common =
          hotspots.stream()
              .filter(p -> entry.getValue().stream().allMatch(s -> contains(s.filter(), p)))
              .toList();
      assertThat(common).as("host %s", entry.getKey()).hasSize(1);
      perHotspot.merge(common.get(0), entry.getValue().size(), Integer::sum);
    }
    // Hosts h1,h5 serve hotspot 1, and so on: the busiest hotspot has Zipf's largest share.
    List<Integer> shares = perHotspot.values().stream().sorted(Comparator.reverseOrder()).toList();
    assertThat(shares.get(0) / 400.0).isCloseTo(new Zipf(4, 1.0).probability(1), within(0.07));
    // Round-robin among a hotspot's hosts: h1 and h5 share hotspot 1's subscriptions evenly.
    assertThat(Math.abs(byHost.get("h1").size() - byHost.get("h5").size())).isLessThanOrEqualTo(1);
  }

  private static boolean contains(String filter, List<Long> point) {
    for (Constraints.Constraint c : Constraints.parse(filter).all()) {
      long v = point.get(Integer.parseInt(c.attribute().substring(1)));
      if (v < c.value() || v > c.high()) {
        return false;
      }
    }
    return true;
  }

  @Test
  void filtersStayInTheDomain() {
    ZipfModel m = new ZipfModel(new IntSpace(5, 100, 0.5, 0.6), 8, 2.0, List.of(1.0));
    Workload w = generate(m, 1000, 100, 5, HostAssignment.ROUND_ROBIN);
    for (Subscription s : w.subscriptions()) {
      Constraints.parse(s.filter()).checkAgainst(m.schema());
    }
    assertThat(w.events().count()).isEqualTo(100);
  }

  @Test
  void rejectsBadParameters() {
    IntSpace space = IntSpace.defaults();
    assertThatThrownBy(() -> new ZipfModel(space, 9, 1, List.of(1.0)))
        .hasMessageContaining("hotspots must be in [1, 8]");
    assertThatThrownBy(() -> new ZipfModel(space, 4, -1, List.of(1.0)))
        .hasMessageContaining("exponent");
    assertThatThrownBy(() -> new ZipfModel(space, 4, 1, List.of(1.0, 1.0, 1.0)))
        .hasMessageContaining("one per attribute");
    assertThatThrownBy(() -> new ZipfModel(space, 4, 1, List.of(1.5)))
        .hasMessageContaining("spread must be in [0, 1]");
  }
}
