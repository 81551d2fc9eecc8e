package org.netpubsub.network.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.index.Dz;

class PartitionAssignmentTest {
  static final Dz P0 = Dz.parse("0");
  static final Dz P000 = Dz.parse("000");
  static final Dz P001 = Dz.parse("001");
  static final Dz P01 = Dz.parse("01");
  static final Dz P1 = Dz.parse("1");

  @Test
  void heaviestFirstEachToTheLeastLoaded() {
    // Fig. 6-like partitions {000, 001, 01, 1} with a skewed popularity
    Map<Dz, Double> weights = Map.of(P000, 0.4, P001, 0.3, P01, 0.2, P1, 0.1);
    Map<Dz, Integer> a = PartitionAssignment.greedy(weights, 2);
    // 000 → c0 (0.4), 001 → c1 (0.3), 01 → c1 (0.5), 1 → c0 (0.5)
    assertThat(a)
        .containsExactly(
            Map.entry(P000, 0), Map.entry(P001, 1), Map.entry(P01, 1), Map.entry(P1, 0));
    assertThat(PartitionAssignment.loads(a, weights, 2))
        .containsExactly(new double[] {0.5, 0.5}, within(1e-12));
  }

  @Test
  void equalWeightsGoInDzOrderToTheLowestIndexFirst() {
    Map<Dz, Double> weights = Map.of(P1, 0.25, P01, 0.25, P001, 0.25, P000, 0.25);
    assertThat(PartitionAssignment.greedy(weights, 3))
        .containsExactly(
            Map.entry(P000, 0), Map.entry(P001, 1), Map.entry(P01, 2), Map.entry(P1, 0));
    assertThat(PartitionAssignment.greedy(weights, 3))
        .isEqualTo(PartitionAssignment.roundRobin(weights.keySet(), 3));
  }

  @Test
  void theResultDoesNotDependOnTheMapsIterationOrder() {
    Map<Dz, Double> forward = new LinkedHashMap<>();
    Map<Dz, Double> backward = new LinkedHashMap<>();
    List<Dz> ps = List.of(P000, P001, P01, P1);
    double[] w = {0.3, 0.3, 0.2, 0.2};
    for (int i = 0; i < ps.size(); i++) {
      forward.put(ps.get(i), w[i]);
    }
    for (int i = ps.size() - 1; i >= 0; i--) {
      backward.put(ps.get(i), w[i]);
    }
    assertThat(PartitionAssignment.greedy(backward, 2))
        .isEqualTo(PartitionAssignment.greedy(forward, 2))
        .isEqualTo(Map.of(P000, 0, P001, 1, P01, 0, P1, 1));
  }

  @Test
  void moreConfiguratorsThanPartitionsLeavesSomeIdle() {
    Map<Dz, Integer> a = PartitionAssignment.greedy(Map.of(P01, 0.7, P1, 0.3), 4);
    assertThat(a).isEqualTo(Map.of(P01, 0, P1, 1));
    assertThat(PartitionAssignment.loads(a, Map.of(P01, 0.7, P1, 0.3), 4))
        .containsExactly(new double[] {0.7, 0.3, 0, 0}, within(1e-12));
  }

  @Test
  void roundRobinDealsInDzOrder() {
    assertThat(PartitionAssignment.roundRobin(List.of(P1, P01, P001, P000), 2))
        .containsExactly(
            Map.entry(P000, 0), Map.entry(P001, 1), Map.entry(P01, 0), Map.entry(P1, 1));
  }

  @Test
  void loadsCountUnweightedPartitionsAsZeroAndRejectForeignIndices() {
    assertThat(PartitionAssignment.loads(Map.of(P0, 1, P1, 0), Map.of(P1, 2.5), 2))
        .containsExactly(new double[] {2.5, 0}, within(1e-12));
    assertThatThrownBy(() -> PartitionAssignment.loads(Map.of(P1, 2), Map.of(), 2))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void popularityIsTheShareOfRequests() {
    assertThat(PartitionAssignment.popularity(Map.of(P0, 3L, P1, 1L)))
        .containsExactly(Map.entry(P0, 0.75), Map.entry(P1, 0.25));
    assertThat(PartitionAssignment.popularity(Map.of(P0, 0L, P1, 0L)))
        .containsExactly(Map.entry(P0, 0.5), Map.entry(P1, 0.5));
    assertThat(PartitionAssignment.popularity(Map.of())).isEmpty();
    assertThatThrownBy(() -> PartitionAssignment.popularity(Map.of(P1, -1L)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsNoConfiguratorsAndBadWeights() {
    assertThatThrownBy(() -> PartitionAssignment.greedy(Map.of(P1, 1.0), 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PartitionAssignment.roundRobin(List.of(P1), 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PartitionAssignment.greedy(Map.of(P1, -0.1), 2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PartitionAssignment.greedy(Map.of(P1, Double.NaN), 2))
        .isInstanceOf(IllegalArgumentException.class);
    Map<Dz, Double> withNull = new HashMap<>();
    withNull.put(P1, null);
    assertThatThrownBy(() -> PartitionAssignment.greedy(withNull, 2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> PartitionAssignment.loads(Map.of(P1, 0), Map.of(P1, -1.0), 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void resultsAreSortedAndUnmodifiable() {
    Map<Dz, Integer> a = PartitionAssignment.greedy(new TreeMap<>(Map.of(P1, 1.0)), 1);
    assertThatThrownBy(() -> a.put(P01, 0)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void randomDealsEqualSharesReproduciblyBySeed() {
    var parts = Partitions.uniform(16).all();
    var a = PartitionAssignment.random(parts, 3, 42);
    assertThat(a).isEqualTo(PartitionAssignment.random(parts, 3, 42)).containsOnlyKeys(parts);
    assertThat(a.values().stream().filter(c -> c == 0).count()).isEqualTo(6);
    assertThat(a.values().stream().filter(c -> c == 2).count()).isEqualTo(5);
    assertThat(a).isNotEqualTo(PartitionAssignment.roundRobin(parts, 3));
  }
}
