package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.broker.EdgeMessage;

class OrderedDeliveryTest {
  private static EdgeMessage m(long seq, int qos) {
    return new EdgeMessage("paris", seq, "t", new byte[] {(byte) seq}, qos, false);
  }

  @Test
  void aGapTimedOutIsReleasedByTheWorkerAndCountedButNotWhileTheReceiverPublishes()
      throws Exception {
    List<Long> published = new CopyOnWriteArrayList<>();
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch leave = new CountDownLatch(1);
    Counters counters = new Counters();
    OrderedDelivery d =
        new OrderedDelivery(
            new HoldBack<>(100, 1000, 100, 1 << 20, 1 << 20, 16, 1000),
            x -> {
              if (x.sequence() == 4) { // the receiver publishing slowly (a blocked DDS write)
                inside.countDown();
                await(leave);
              }
              published.add(x.sequence());
            },
            counters);
    d.offer(m(1, 1), 9, 0);
    d.offer(m(3, 1), 9, 0); // 2 missing: held
    assertThat(published).containsExactly(1L);
    Thread receiver = Thread.ofPlatform().start(() -> d.offer(m(4, 0), 9, 1)); // best effort
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(d.due(200)).as("the worker does not wait for the receiver").isFalse();
    leave.countDown();
    receiver.join(10_000);
    assertThat(d.due(200)).isTrue();
    assertThat(published).containsExactly(1L, 4L, 3L);
    assertThat(counters.get("reorder_lost")).isEqualTo(1);
    assertThat(counters.get("reorder_released_past_gap")).isEqualTo(1);
    d.offer(m(2, 1), 9, 201); // the repair, too late
    assertThat(published).containsExactly(1L, 4L, 3L);
    assertThat(counters.get("dropped.reorder_too_late")).isEqualTo(1);
  }

  private static void await(CountDownLatch l) {
    try {
      l.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
