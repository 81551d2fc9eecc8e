package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Reliable mode's pure halves against a simulated path that loses, delays and reorders datagrams
 * (both ways, heartbeats and NACKs included): the receiver's output must be the sender's sequence,
 * once each and in order; with a buffer too small, a gap-free increasing subsequence whose missing
 * numbers are all counted lost.
 */
class OrderedWindowsProperties {
  private static final InetSocketAddress RECEIVER = new InetSocketAddress("127.0.0.1", 2);

  @Property(tries = 300)
  void everythingArrivesOnceInOrderWhenTheBufferSuffices(
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 300) int n,
      @ForAll @DoubleRange(min = 0, max = 0.25) double loss) {
    Sim s = new Sim(seed, loss, 1000).run(n);
    assertThat(s.delivered).isEqualTo(range(n));
    assertThat(s.windows.lost()).isZero();
    assertThat(s.windows.pending()).isZero();
  }

  @Property(tries = 300)
  void aSmallBufferLosesNumbersButNeverOrderOrCount(
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 300) int n,
      @ForAll @DoubleRange(min = 0, max = 0.25) double loss,
      @ForAll @IntRange(min = 1, max = 4) int buffer) {
    Sim s = new Sim(seed, loss, buffer).run(n);
    assertThat(s.delivered).isSorted().doesNotHaveDuplicates();
    // numbers before the first one seen may never have been ours: "unknown", not "lost"
    assertThat(s.delivered.size() + s.windows.lost() + s.windows.unknown()).isEqualTo(n);
    assertThat(s.windows.pending()).isZero();
  }

  @Test
  void aRestartedOriginStartsANewSequenceAndTheOldGapsAreLost() {
    OrderedWindows w = new OrderedWindows(4096, 10, 3);
    assertThat(w.accept(msg(1), 7, RECEIVER, 0).deliver()).hasSize(1);
    OrderedWindows.Step gap = w.accept(msg(3), 7, RECEIVER, 0);
    assertThat(gap.deliver()).isEmpty();
    assertThat(gap.nacks()).extracting(OrderedWindows.Nack::from).containsExactly(2L);
    OrderedWindows.Step restart = w.accept(msg(1), 8, RECEIVER, 1); // new session, from 1
    assertThat(restart.deliver()).extracting(EdgeMessage::sequence).containsExactly(3L, 1L);
    assertThat(w.lost()).isEqualTo(1);
    assertThat(w.accept(msg(1), 8, RECEIVER, 2).duplicate()).isTrue();
  }

  @Test
  void aFirstMessageAsksWhichEarlierNumbersWereOurs() {
    OrderedWindows w = new OrderedWindows(4096, 10, 3);
    OrderedWindows.Step first = w.accept(msg(5), 7, RECEIVER, 0);
    assertThat(first.deliver()).isEmpty(); // waits: 1..4 may have been ours
    assertThat(first.nacks())
        .containsExactly(new OrderedWindows.Nack("o", 7, "t", 1, 4, RECEIVER, true));
    assertThat(w.resolve("o", 7, "t", 1, 4, false, 1).deliver()).hasSize(1);
  }

  @Test
  void numbersNotSentToThisEdgeAreSkippedNotLost() {
    OrderedWindows w = new OrderedWindows(4096, 10, 3);
    w.accept(msg(1), 7, RECEIVER, 0);
    assertThat(w.accept(msg(9), 7, RECEIVER, 0).deliver()).isEmpty();
    OrderedWindows.Step s = w.resolve("o", 7, "t", 2, 8, false, 1);
    assertThat(s.deliver()).extracting(EdgeMessage::sequence).containsExactly(9L);
    assertThat(w.lost()).isZero();
  }

  private static List<Long> range(int n) {
    List<Long> out = new ArrayList<>();
    for (long i = 1; i <= n; i++) {
      out.add(i);
    }
    return out;
  }

  private static EdgeMessage msg(long seq) {
    return new EdgeMessage("o", seq, "t", new byte[0], 1, false);
  }

  /** One sender, one receiver, a path of 1–5 ms that loses {@code loss} of everything. */
  private static final class Sim {
    private record Packet(long at, long order, boolean toReceiver, Object what) {}

    final SplittableRandom random;
    final double loss;
    final RetransmitBuffer buffer;
    final OrderedWindows windows = new OrderedWindows(4096, 20, 60);
    final List<Long> delivered = new ArrayList<>();
    final PriorityQueue<Packet> path =
        new PriorityQueue<>(
            (a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.order, b.order));
    long order;
    long now;

    Sim(long seed, double loss, int buffer) {
      this.random = new SplittableRandom(seed);
      this.loss = loss;
      this.buffer = new RetransmitBuffer(buffer, 10, 10);
    }

    Sim run(int n) {
      for (now = 0; now < 200_000; now++) {
        if (now < n) {
          EdgeMessage m = msg(now + 1);
          buffer.put("t", m.sequence(), new byte[0], Set.of(RECEIVER), false, now);
          send(true, m);
        }
        for (Packet p; (p = path.peek()) != null && p.at <= now; ) {
          path.poll();
          arrive(p);
        }
        apply(windows.due(now));
        for (RetransmitBuffer.Heartbeat h : buffer.heartbeats(now)) {
          send(true, h);
        }
        if (now >= n && path.isEmpty() && windows.pending() == 0 && buffer.pendingTails() == 0) {
          return this;
        }
      }
      throw new AssertionError("never settled");
    }

    private void arrive(Packet p) {
      if (p.what instanceof EdgeMessage m) {
        apply(windows.accept(m, 7, RECEIVER, now));
      } else if (p.what instanceof RetransmitBuffer.Heartbeat h) {
        apply(windows.heartbeat("o", 7, "t", h.seq(), RECEIVER, now));
      } else if (p.what instanceof OrderedWindows.Nack k) {
        for (long s = k.from(); s <= k.to(); s++) {
          if (buffer.answer("t", s, RECEIVER, k.before()) instanceof RetransmitBuffer.Resend) {
            send(true, msg(s));
          } else {
            send(true, new long[] {s}); // gone
          }
        }
      } else if (p.what instanceof long[] gone) {
        apply(windows.resolve("o", 7, "t", gone[0], gone[0], true, now));
      }
    }

    private void apply(OrderedWindows.Step s) {
      s.deliver().forEach(m -> delivered.add(m.sequence()));
      s.nacks().forEach(k -> send(false, k));
    }

    private void send(boolean toReceiver, Object what) {
      if (random.nextDouble() < loss) {
        return;
      }
      path.add(new Packet(now + 1 + random.nextInt(5), order++, toReceiver, what));
    }
  }
}
