package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** Reliable mode's receive windows are remote input: capped, and eviction loses nothing held. */
class OrderedWindowsBoundTest {
  private static final InetSocketAddress AT = new InetSocketAddress("127.0.0.1", 7090);

  private static EdgeMessage m(String topic, long seq) {
    return new EdgeMessage("e0", seq, topic, new byte[] {1}, 1, false);
  }

  @Test
  void twentyThousandTopicsKeepAtMostTheCapAndEvictionDeliversWhatWasHeld() {
    OrderedWindows w = new OrderedWindows(16, 100, 3, 1000);
    // topic h/0 holds message 3 behind a gap at 2 (1 delivered)
    assertThat(w.accept(m("h/0", 1), 9, AT, 0).deliver()).hasSize(1);
    assertThat(w.accept(m("h/0", 3), 9, AT, 0).deliver()).isEmpty();
    int delivered = 0;
    boolean heldReleased = false;
    for (int i = 0; i < 20_000; i++) {
      OrderedWindows.Step s = w.accept(m("u/" + i, 1), 9, AT, 1);
      delivered += s.deliver().size();
      heldReleased |= s.deliver().stream().anyMatch(x -> x.topic().equals("h/0"));
      assertThat(w.pending()).isLessThanOrEqualTo(1000);
    }
    assertThat(w.evicted()).isEqualTo(20_000 - 999);
    assertThat(heldReleased).as("the held message delivered at eviction").isTrue();
    assertThat(delivered).isEqualTo(20_001); // every new window's first, and h/0's held one
  }
}
