package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The overlay's state keyed by remote input is bounded and expires; NACK answers are budgeted. */
class BoundedInputsTest {
  @Test
  void receiveWindowsAreCappedEvictTheLeastRecentlyUsedAndExpireWhenIdle() {
    ReceiveWindows w = new ReceiveWindows(4096, 150, 20, 1000, 60_000);
    List<ReceiveWindows.Nack> nacks = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      w.accept("paris", "u/" + i, 7, 1, 0, nacks);
      assertThat(w.size()).isLessThanOrEqualTo(1000);
    }
    assertThat(w.evicted()).isEqualTo(19_000);
    // the most recent 1 000 are kept: a repeat of the last is a duplicate, the first starts anew
    assertThat(w.accept("paris", "u/19999", 7, 1, 0, nacks))
        .isEqualTo(ReceiveWindows.Verdict.DUPLICATE);
    assertThat(w.accept("paris", "u/0", 7, 1, 0, nacks)).isEqualTo(ReceiveWindows.Verdict.DELIVER);
    // idle past 60 s with nothing missing: forgotten at the next tick
    w.due(60_001);
    assertThat(w.size()).isZero();
    assertThat(nacks).isEmpty();
  }

  @Test
  void anotherSessionOfTheOriginRestartsItsWindowEvenBelowTheOldNumbers() {
    ReceiveWindows w = new ReceiveWindows(4096, 150, 20);
    List<ReceiveWindows.Nack> nacks = new ArrayList<>();
    assertThat(w.accept("paris", "t", 1, Long.MAX_VALUE, 0, nacks))
        .isEqualTo(ReceiveWindows.Verdict.DELIVER);
    assertThat(w.accept("paris", "t", 1, 5, 1, nacks)).isEqualTo(ReceiveWindows.Verdict.DUPLICATE);
    // a restarted origin (new session) with a random base far below: delivered, in order again
    assertThat(w.accept("paris", "t", 2, 5, 2, nacks)).isEqualTo(ReceiveWindows.Verdict.DELIVER);
    assertThat(w.accept("paris", "t", 2, 6, 3, nacks)).isEqualTo(ReceiveWindows.Verdict.DELIVER);
    assertThat(nacks).isEmpty();
  }

  @Test
  void nacksAreAnsweredOnlyForTheSubscribersRegisteredAddressWithinABudget() {
    InetSocketAddress rome = new InetSocketAddress("127.0.0.1", 4000);
    InetSocketAddress other = new InetSocketAddress("127.0.0.1", 4001);
    TopicState t =
        new TopicState(
            Optional.empty(),
            0,
            Map.of("paris", new Endpoint("paris", new InetSocketAddress("127.0.0.1", 3999))),
            Map.of(
                "rome", new Endpoint("rome", rome),
                "paris", new Endpoint("paris", other)));
    assertThat(NackBudget.asker(t, rome, "paris")).contains("rome");
    assertThat(NackBudget.asker(t, other, "paris")).isEmpty(); // itself: never
    assertThat(NackBudget.asker(t, new InetSocketAddress("127.0.0.1", 9), "paris")).isEmpty();
    assertThat(NackBudget.asker(null, rome, "paris")).isEmpty();

    NackBudget b = new NackBudget(1000, 3000, 2);
    assertThat(b.take("rome", 2000, 0)).isTrue();
    assertThat(b.take("rome", 2000, 0)).isFalse(); // 1 000 left of the burst
    assertThat(b.take("rome", 2000, 1000)).isTrue(); // a second later, 1 000 more
    long sent = 0;
    for (int i = 0; i < 10_000; i++) { // a replayed NACK, 10 000 times in one second
      if (b.take("milan", 500, 1000 + i / 10)) {
        sent += 500;
      }
    }
    assertThat(sent).isLessThanOrEqualTo(3000 + 1000);
    b.take("turin", 1, 0);
    assertThat(b.edges()).isEqualTo(2); // capped: the least recently used went
  }
}
