package org.netpubsub.network.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.content.index.Dz;

/** Greedy packing against the brute-force optimum (the LPT bound) and its bookkeeping. */
class PartitionAssignmentProperties {
  @Property(tries = 500)
  void greedyIsWithinFourThirdsOfTheOptimum(
      @ForAll("weights") List<Double> weights, @ForAll @IntRange(min = 1, max = 3) int n) {
    Map<Dz, Double> popularity = partitions(weights);
    double[] loads =
        PartitionAssignment.loads(PartitionAssignment.greedy(popularity, n), popularity, n);
    double greedyMax = 0;
    for (double l : loads) {
      greedyMax = Math.max(greedyMax, l);
    }
    double optimal = OptimalAssignment.maxLoad(weights, n);
    assertThat(greedyMax).isLessThanOrEqualTo(4.0 / 3.0 * optimal + 1e-9);
  }

  @Property(tries = 500)
  void everyPartitionIsAssignedOnceToAnExistingConfigurator(
      @ForAll("weights") List<Double> weights, @ForAll @IntRange(min = 1, max = 5) int n) {
    Map<Dz, Double> popularity = partitions(weights);
    Map<Dz, Integer> greedy = PartitionAssignment.greedy(popularity, n);
    Map<Dz, Integer> roundRobin = PartitionAssignment.roundRobin(popularity.keySet(), n);
    for (Map<Dz, Integer> a : List.of(greedy, roundRobin)) {
      assertThat(a.keySet()).containsExactlyInAnyOrderElementsOf(popularity.keySet());
      assertThat(a.values()).allSatisfy(c -> assertThat(c).isBetween(0, n - 1));
      double sum = 0;
      for (double l : PartitionAssignment.loads(a, popularity, n)) {
        sum += l;
      }
      double total = weights.stream().mapToDouble(Double::doubleValue).sum();
      assertThat(sum).isCloseTo(total, within(1e-9));
    }
  }

  @Property(tries = 300)
  void greedyIgnoresTheMapsIterationOrder(
      @ForAll("weights") List<Double> weights, @ForAll @IntRange(min = 1, max = 4) int n) {
    Map<Dz, Double> forward = partitions(weights);
    List<Map.Entry<Dz, Double>> entries = new ArrayList<>(forward.entrySet());
    Map<Dz, Double> backward = new LinkedHashMap<>();
    for (int i = entries.size() - 1; i >= 0; i--) {
      backward.put(entries.get(i).getKey(), entries.get(i).getValue());
    }
    assertThat(PartitionAssignment.greedy(backward, n))
        .isEqualTo(PartitionAssignment.greedy(forward, n));
  }

  @Property(tries = 300)
  void popularitySharesSumToOne(@ForAll("counts") List<Long> counts) {
    Map<Dz, Long> byPartition = new LinkedHashMap<>();
    for (int i = 0; i < counts.size(); i++) {
      byPartition.put(dz(i), counts.get(i));
    }
    Map<Dz, Double> shares = PartitionAssignment.popularity(byPartition);
    assertThat(shares.keySet()).isEqualTo(byPartition.keySet());
    assertThat(shares.values().stream().mapToDouble(Double::doubleValue).sum())
        .isCloseTo(1.0, within(1e-9));
  }

  @Provide
  Arbitrary<List<Double>> weights() {
    // few distinct values, so that equal weights (the tie rules) are common
    return Arbitraries.integers().between(0, 12).map(i -> i / 4.0).list().ofMinSize(1).ofMaxSize(8);
  }

  @Provide
  Arbitrary<List<Long>> counts() {
    return Arbitraries.longs().between(0, 1000).list().ofMinSize(1).ofMaxSize(8);
  }

  /** The weights on the eight partitions of length 3, in turn. */
  static Map<Dz, Double> partitions(List<Double> weights) {
    Map<Dz, Double> popularity = new LinkedHashMap<>();
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < weights.size(); i++) {
      // shuffle deterministically so that dz order differs from list order
      order.add((i * 5 + 3) % 8);
    }
    for (int i = 0; i < weights.size(); i++) {
      popularity.put(dz(order.get(i)), weights.get(i));
    }
    return popularity;
  }

  static Dz dz(int i) {
    String bits = Integer.toBinaryString(8 | i).substring(1);
    return Dz.parse(bits);
  }
}
