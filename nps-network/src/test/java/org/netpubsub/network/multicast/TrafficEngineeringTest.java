package org.netpubsub.network.multicast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

class TrafficEngineeringTest {
  static final long SECOND = 1_000_000_000L;
  final Topology line = TestTopologies.linear(3);
  final Link first = line.links().first();

  @Test
  void utilizationIsTheBusierDirectionsRateOverCapacity() {
    SwitchPort a = first.a();
    SwitchPort b = first.b();
    var before = new TrafficEngineering.Sample(0, Map.of(a, 1000L, b, 0L));
    var after = new TrafficEngineering.Sample(2 * SECOND, Map.of(a, 1000L + 25_000L, b, 5_000L));
    Map<Link, Double> u = TrafficEngineering.utilization(line, before, after, 1_000_000);
    // 25 000 bytes in 2 s = 100 kbit/s of 1 Mbit/s
    assertThat(u.get(first)).isCloseTo(0.1, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(u).as("no counters for the other link").hasSize(1);
    var reset = new TrafficEngineering.Sample(3 * SECOND, Map.of(a, 10L, b, 5_000L));
    assertThat(TrafficEngineering.utilization(line, after, reset, 1_000_000))
        .as("counters that went backwards say nothing")
        .isEmpty();
  }

  @Test
  void aLinkStaysHotUntilBelowReleaseAndTheHoldDownPassed() {
    TrafficEngineering te = new TrafficEngineering(0.65, 0.5, 10 * SECOND);
    assertThat(te.update(0, Map.of(first, 0.6))).isEmpty();
    assertThat(te.update(SECOND, Map.of(first, 0.7))).containsExactly(first);
    assertThat(te.update(2 * SECOND, Map.of(first, 0.1))).as("held down").containsExactly(first);
    assertThat(te.update(12 * SECOND, Map.of(first, 0.55)))
        .as("above release")
        .containsExactly(first);
    assertThat(te.update(13 * SECOND, Map.of(first, 0.2))).isEmpty();
    assertThat(te.update(14 * SECOND, Map.of(first, 0.9))).containsExactly(first);
    assertThat(te.update(15 * SECOND, Map.of())).as("a link gone is not hot").isEmpty();
  }

  @Test
  void settingsAreChecked() {
    assertThatThrownBy(() -> new TrafficEngineering(0.5, 0.6, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TrafficEngineering(0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
