package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.FilterEvaluator;
import org.netpubsub.content.filter.FilterParser;
import org.netpubsub.content.filter.Normalizer;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.content.index.SpatialIndex;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.workload.Arrival;
import org.netpubsub.content.workload.HostAssignment;
import org.netpubsub.content.workload.IntSpace;
import org.netpubsub.content.workload.UniformModel;
import org.netpubsub.content.workload.Workload;
import org.netpubsub.content.workload.WorkloadSpec;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.sim.Trace;
import org.netpubsub.network.topology.TestTopologies;

/**
 * The false-positive rate counted from covers equals what the configurator's flows deliver on a
 * simulated fat tree (the differential twin), and small cases come out as computed by hand.
 */
class FalsePositiveRateTest {
  static final Schema ONE = Schema.builder("one").intAttribute("a0", 0, 1023).build();

  @Test
  void handComputedCounts() {
    FalsePositiveRate fpr =
        FalsePositiveRate.of(
            List.of(hostFilter("h2", ONE, "a0 in [0, 100]"), hostFilter("h3", ONE, "a0 >= 512")),
            List.of(event(ONE, 50), event(ONE, 120), event(ONE, 300), event(ONE, 700)));
    // L = 1: h2 holds cell "0" (values 0..511) and receives 50 (wanted), 120 and 300 (not); h3
    // holds "1" and receives exactly 700.
    assertThat(fpr.at(new SpatialIndex(ONE, 1), 64)).isEqualTo(new FalsePositiveRate.Count(4, 2));
    // L = 10 resolves every value: no false positives are left.
    assertThat(fpr.at(new SpatialIndex(ONE, 10), 64)).isEqualTo(new FalsePositiveRate.Count(2, 0));
    // One cell per subscription at L = 10: [0, 100] is coarsened to "000" (0..127), which holds
    // 120.
    assertThat(fpr.cellsOf("h2", new SpatialIndex(ONE, 10), 1))
        .isEqualTo(DzSet.of(Dz.parse("000")));
    assertThat(fpr.at(new SpatialIndex(ONE, 10), 1)).isEqualTo(new FalsePositiveRate.Count(3, 1));
    assertThat(new FalsePositiveRate.Count(0, 0).rate()).isZero();
  }

  @ParameterizedTest
  @CsvSource({"4, 64", "8, 64", "12, 4", "16, 64"})
  void countsEqualWhatTheFlowsDeliverOnASimulatedFatTree(int length, int maxCells) {
    Workload w =
        new UniformModel(new IntSpace(2, 1024, 0.25, 1.0))
            .generate(
                new WorkloadSpec(length, 60, 150, 15, HostAssignment.ROUND_ROBIN, Arrival.NONE));
    SpatialIndex index = new SpatialIndex(w.schema(), length);
    List<Event> events = w.events().toList();
    List<FalsePositiveRate.HostFilter> subs = new ArrayList<>();
    PleromaNetwork n = new PleromaNetwork(TestTopologies.fatTree(4), length);
    for (var s : w.subscriptions()) {
      // workload hosts h1..h15 sit on fat-tree hosts h2..h16; h1 publishes
      String host = "h" + (Integer.parseInt(s.host().orElseThrow().substring(1)) + 1);
      FalsePositiveRate.HostFilter hf = hostFilter(host, w.schema(), s.filter());
      subs.add(hf);
      n.subscribe(host, 7073, index.cover(hf.filter(), maxCells));
    }
    String ad = n.advertise("h1", DzSet.ALL);
    Advertisement a = n.configurator.advertisements().get(ad);

    long received = 0;
    long unnecessary = 0;
    for (Event e : events) {
      Dz dz = index.dz(e);
      Trace t =
          n.net.send(
              "h1",
              PacketHeaders.udp6(
                  a.host(), ContentFlows.address(dz), 40000, ContentFlows.EVENT_PORT));
      Set<String> to = new HashSet<>();
      for (Trace.Delivery d : t.deliveries()) {
        assertThat(to.add(d.host())).as("one copy per host").isTrue();
        received++;
        boolean wanted =
            subs.stream()
                .anyMatch(s -> s.host().equals(d.host()) && FilterEvaluator.matches(s.filter(), e));
        unnecessary += wanted ? 0 : 1;
      }
    }
    FalsePositiveRate.Count count = FalsePositiveRate.of(subs, events).at(index, maxCells);
    assertThat(count).isEqualTo(new FalsePositiveRate.Count(received, unnecessary));
    assertThat(received).as("the workload must deliver something").isPositive();
  }

  @Test
  void withoutACellBudgetALongerDzNeverAddsFalsePositives() {
    Workload w =
        new UniformModel(new IntSpace(2, 1024, 0.25, 1.0))
            .generate(new WorkloadSpec(3, 200, 2000, 8, HostAssignment.ROUND_ROBIN, Arrival.NONE));
    List<FalsePositiveRate.HostFilter> subs =
        w.subscriptions().stream()
            .map(s -> hostFilter(s.host().orElseThrow(), w.schema(), s.filter()))
            .toList();
    FalsePositiveRate fpr = FalsePositiveRate.of(subs, w.events().toList());
    double previous = 1;
    // exact covers: a cell at L + 1 bits lies inside a cell at L bits
    for (int length : new int[] {2, 4, 8, 12, 16, 20}) {
      double rate =
          fpr.at(new SpatialIndex(w.schema(), length), SpatialIndex.MAX_CELLS_LIMIT).rate();
      assertThat(rate).as("L = %d", length).isLessThanOrEqualTo(previous);
      previous = rate;
    }
    assertThat(previous).as("20 bits resolve every value of 2 × 1024").isZero();
  }

  private static FalsePositiveRate.HostFilter hostFilter(String host, Schema schema, String f) {
    return new FalsePositiveRate.HostFilter(host, Normalizer.toDnf(FilterParser.parse(schema, f)));
  }

  private static Event event(Schema schema, long a0) {
    return Event.builder(schema).set(schema.attribute(0), a0).build();
  }
}
