package org.netpubsub.controller.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The reports' store: cumulative counters, bounded, expiring, gone with the subscription. */
class SubscriptionStatsTest {
  @Test
  void aReportAddsWhatItsCountersGrewByAndARestartCountsAgain() {
    SubscriptionStats s = new SubscriptionStats(10, 1_000);
    assertThat(s.record("a", 10, 2, 0)).isEqualTo(new SubscriptionStats.Delta(10, 2));
    assertThat(s.record("a", 15, 2, 1)).isEqualTo(new SubscriptionStats.Delta(5, 0));
    assertThat(s.record("a", 3, 1, 2)).isEqualTo(new SubscriptionStats.Delta(3, 1));
    assertThatThrownBy(() -> s.record("a", 3, 4, 3)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void theLeastRecentlyReportedGoFirstAndOldReportsExpire() {
    SubscriptionStats s = new SubscriptionStats(2, 100);
    s.record("a", 1, 0, 0);
    s.record("b", 2, 0, 10);
    s.record("a", 3, 1, 20);
    s.record("c", 4, 0, 30); // b is the least recently reported
    assertThat(s.current(id -> true, 30)).containsOnlyKeys("a", "c");
    assertThat(s.current(id -> !id.equals("c"), 30)).containsOnlyKeys("a");
    assertThat(s.current(id -> true, 121)).isEmpty();
    SubscriptionStats.Totals t =
        SubscriptionStats.totals(
            java.util.Map.of(
                "x", new SubscriptionStats.Report(10, 1, 0),
                "y", new SubscriptionStats.Report(30, 9, 0)));
    assertThat(t).isEqualTo(new SubscriptionStats.Totals(40, 10, 2));
    assertThat(t.rate()).isEqualTo(0.25);
    assertThat(SubscriptionStats.totals(java.util.Map.of()).rate()).isZero();
  }
}
