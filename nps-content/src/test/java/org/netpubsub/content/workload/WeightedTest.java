package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class WeightedTest {
  @Test
  void frequenciesFollowTheWeights() {
    Weighted w = new Weighted(0, 10, 40, 0, 30, 20, 0);
    Rand rng = new Rand(9);
    int n = 50_000;
    int[] counts = new int[7];
    for (int i = 0; i < n; i++) {
      counts[w.sample(rng)]++;
    }
    assertThat(counts[0]).isZero();
    assertThat(counts[3]).isZero();
    assertThat(counts[6]).isZero();
    assertThat(counts[1] / (double) n).isCloseTo(0.10, within(0.01));
    assertThat(counts[2] / (double) n).isCloseTo(0.40, within(0.01));
    assertThat(counts[4] / (double) n).isCloseTo(0.30, within(0.01));
    assertThat(counts[5] / (double) n).isCloseTo(0.20, within(0.01));
  }

  @Test
  void rejectsBadWeights() {
    assertThatThrownBy(Weighted::new).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Weighted(0, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Weighted(1, -1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Weighted(1, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
