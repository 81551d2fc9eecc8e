package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class ArrivalTest {
  private static List<Double> times(Arrival arrival, int n) {
    UniformModel model = new UniformModel(IntSpace.defaults());
    Workload w = model.generate(new WorkloadSpec(4, n, 0, 4, HostAssignment.ROUND_ROBIN, arrival));
    return w.subscriptions().stream().map(s -> s.atMs().orElseThrow()).toList();
  }

  @Test
  void poissonInterArrivalsAverageOneOverTheRate() {
    int n = 20_000;
    List<Double> t = times(new Arrival(Arrival.Kind.POISSON, 5000), n);
    double meanGap = t.get(n - 1) / n; // the first gap is counted from 0
    assertThat(meanGap).isCloseTo(0.2, within(0.2 * 0.05));
    // Exponential gaps: their standard deviation equals their mean, unlike a uniform rate.
    double sumSq = 0;
    double prev = 0;
    for (double x : t) {
      assertThat(x).isGreaterThanOrEqualTo(prev);
      sumSq += (x - prev - meanGap) * (x - prev - meanGap);
      prev = x;
    }
    assertThat(Math.sqrt(sumSq / n)).isCloseTo(0.2, within(0.2 * 0.1));
  }

  @Test
  void uniformRateIsEquallySpacedFromZero() {
    List<Double> t = times(new Arrival(Arrival.Kind.UNIFORM, 3000), 301);
    assertThat(t.get(0)).isZero();
    assertThat(t.get(3)).isEqualTo(1.0);
    assertThat(t.get(1)).isEqualTo(0.333);
    assertThat(t.get(300)).isEqualTo(100.0);
  }

  @Test
  void noArrivalProcessMeansNoTimes() {
    Workload w =
        new UniformModel(IntSpace.defaults())
            .generate(new WorkloadSpec(4, 5, 0, 4, HostAssignment.ROUND_ROBIN, Arrival.NONE));
    assertThat(w.subscriptions()).allSatisfy(s -> assertThat(s.atMs()).isEmpty());
  }

  @Test
  void rejectsBadRatesAndNames() {
    assertThatThrownBy(() -> new Arrival(Arrival.Kind.POISSON, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rate");
    assertThatThrownBy(() -> new Arrival(Arrival.Kind.UNIFORM, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(Arrival.Kind.parse("poisson")).isEqualTo(Arrival.Kind.POISSON);
    assertThatThrownBy(() -> Arrival.Kind.parse("bursty"))
        .hasMessageContaining("none, uniform or poisson");
  }
}
