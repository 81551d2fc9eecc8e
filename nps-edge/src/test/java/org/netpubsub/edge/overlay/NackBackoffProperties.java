package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.edge.broker.EdgeMessage;

/**
 * The receiving edge's NACK back-off (issue 25: fixed 150 ms repeats under load made a storm of
 * retransmissions that delayed the repairs past the give-up): a missing number is asked for again
 * at the times a naive twin (doubling step by step up to the cap) gives, and given up exactly at
 * {@link ReceiveWindows#giveUpMillis}; the edge's hold-back holds a gap as long as it is asked for.
 */
class NackBackoffProperties {
  @Property(tries = 100)
  void asksFollowTheDoublingIntervalsAndGiveUpAtTheirSum(
      @ForAll @IntRange(min = 1, max = 200) int retry,
      @ForAll @IntRange(min = 0, max = 2000) int extra,
      @ForAll @IntRange(min = 1, max = 14) int tries) {
    long cap = retry + extra;
    // the twin: the step doubles after each ask, never beyond the cap
    List<Long> expected = new ArrayList<>();
    long t = 0;
    long step = retry;
    for (int k = 1; k < tries; k++) {
      t += step;
      expected.add(t);
      step = Math.min(step * 2, cap);
    }
    long giveUp = t + step;

    ReceiveWindows w = new ReceiveWindows(100, retry, cap, tries);
    List<ReceiveWindows.Nack> first = new ArrayList<>();
    w.accept("a", "t", 1, 0, first);
    w.accept("a", "t", 3, 0, first); // 2 is missing: asked for at once
    assertThat(first).containsExactly(new ReceiveWindows.Nack("a", "t", 2, 2));
    List<Long> asked = new ArrayList<>();
    for (long now = 1; now < giveUp; now++) { // the worker's ticks, here every millisecond
      if (!w.due(now).isEmpty()) {
        asked.add(now);
      }
      assertThat(w.lost()).as("given up early, at %d of %d", now, giveUp).isZero();
    }
    assertThat(asked).isEqualTo(expected);
    assertThat(w.due(giveUp)).isEmpty();
    assertThat(w.lost()).isEqualTo(1);
    assertThat(w.missing()).isZero();
    assertThat(ReceiveWindows.giveUpMillis(retry, cap, tries)).isEqualTo(giveUp);
  }

  @Example
  void numbersAreNeitherAskedAgainNorGivenUpWhileTheirWindowsRepairsKeepArriving() {
    ReceiveWindows w = new ReceiveWindows(100, 100, 100, 2);
    List<ReceiveWindows.Nack> nacks = new ArrayList<>();
    w.accept("a", "t", 0, 0, nacks);
    w.accept("a", "t", 10, 0, nacks); // 1..9 missing, asked for at once
    w.accept("b", "t", 0, 0, nacks);
    w.accept("b", "t", 2, 0, nacks); // 1 missing at another origin
    long now = 0;
    for (long seq = 1; seq <= 8; seq++) { // a's repairs trickle in, one every 60 ms
      now += 60;
      assertThat(w.accept("a", "t", seq, now, nacks)).isEqualTo(ReceiveWindows.Verdict.RECOVERED);
      List<ReceiveWindows.Nack> due = w.due(now);
      assertThat(due).noneMatch(n -> n.origin().equals("a"));
    }
    assertThat(w.lost()).as("b's number, asked twice, given up; a's kept").isEqualTo(1);
    assertThat(w.due(now + 99)).isEmpty();
    assertThat(w.due(now + 100)).containsExactly(new ReceiveWindows.Nack("a", "t", 9, 9));
    assertThat(w.due(now + 200)).isEmpty();
    assertThat(w.lost()).isEqualTo(2);
  }

  @Example
  void withoutACapTheAsksRepeatAtAFixedInterval() {
    assertThat(ReceiveWindows.giveUpMillis(150, 150, 20)).isEqualTo(3_000);
    assertThatThrownBy(() -> new ReceiveWindows(100, 150, 100, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxRetryMillis");
  }

  @Example
  void theEdgeHoldsAGapAsLongAsItAsksForItAndARepairAfterThreeSecondsIsDelivered() {
    assertThat(OrderedDelivery.HOLD_MILLIS)
        .isEqualTo(
            ReceiveWindows.giveUpMillis(
                OrderedDelivery.RETRY_MILLIS,
                OrderedDelivery.MAX_RETRY_MILLIS,
                OrderedDelivery.TRIES))
        .isEqualTo(10_050);
    List<Long> published = new ArrayList<>();
    Counters counters = new Counters();
    OrderedDelivery d = new OrderedDelivery(x -> published.add(x.sequence()), counters);
    d.offer(m(1), 9, 0);
    d.offer(m(3), 9, 0); // 2 missing: held
    d.due(5_000); // the old give-up was 3 s
    assertThat(published).containsExactly(1L);
    d.offer(m(2), 9, 5_000); // a repair slowed down by a loaded machine
    assertThat(published).containsExactly(1L, 2L, 3L);
    assertThat(counters.get("reorder_lost")).isZero();
    d.offer(m(5), 9, 5_001); // 4 missing
    d.due(5_001 + OrderedDelivery.HOLD_MILLIS - 1);
    assertThat(published).containsExactly(1L, 2L, 3L);
    d.due(5_001 + OrderedDelivery.HOLD_MILLIS);
    assertThat(published).containsExactly(1L, 2L, 3L, 5L);
    assertThat(counters.get("reorder_lost")).isEqualTo(1);
  }

  private static EdgeMessage m(long seq) {
    return new EdgeMessage("paris", seq, "t", new byte[] {(byte) seq}, 1, false);
  }
}
