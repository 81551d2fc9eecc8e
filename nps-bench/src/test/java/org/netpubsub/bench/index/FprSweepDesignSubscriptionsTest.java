package org.netpubsub.bench.index;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How many subscriptions {@code nps bench fpr} designs a learned layout from. */
class FprSweepDesignSubscriptionsTest {
  @Test
  void byDefaultAtLeastOneHostsWorthAndAtLeast500() {
    // 8 hosts of 1 250: the whole first host, not 500 of it
    assertThat(FprSweep.designSubscriptions(0, 10_000, 8)).isEqualTo(1_250);
    // 100 hosts of 100: the floor of 500 (five hosts)
    assertThat(FprSweep.designSubscriptions(0, 10_000, 100)).isEqualTo(500);
    assertThat(FprSweep.designSubscriptions(0, 10_000, 0)).isEqualTo(10_000);
  }

  @Test
  void anExplicitNumberWins() {
    assertThat(FprSweep.designSubscriptions(300, 10_000, 8)).isEqualTo(300);
    assertThat(FprSweep.designSubscriptions(2_500, 10_000, 100)).isEqualTo(2_500);
  }
}
