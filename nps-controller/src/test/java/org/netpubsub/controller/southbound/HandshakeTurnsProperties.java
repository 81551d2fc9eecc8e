package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.controller.southbound.HandshakeTurns.Outcome;

/**
 * {@link HandshakeTurns} against a naive twin: a list of every party in arrival order with its
 * source, state and begin time, rescanned at each step. A party begins at once unless its source
 * has someone waiting, or has {@code limit} or more running of which the earliest began {@code
 * behind} or more ago; then it waits, unless its source's or all the waiting are at their bound (it
 * begins, overflowing). When a running party ends, its source's earliest waiting begin while fewer
 * than {@code limit} of that source run. Random histories of requests from a few sources and ends
 * (repeated, and for parties that never asked) over a clock that advances by random steps, several
 * limits, thresholds and bounds: the same outcomes, the same parties begin at the same steps in the
 * same order, the same counts.
 */
class HandshakeTurnsProperties {
  private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

  enum State {
    WAITING,
    RUNNING,
    ENDED
  }

  /** The naive twin: every arrival kept, the counts recomputed by scanning at each step. */
  static final class Twin {
    final int limit;
    final long behind;
    final int maxPerSource;
    final int maxWaiting;
    final List<Integer> order = new ArrayList<>();
    final List<Integer> sources = new ArrayList<>();
    final List<State> states = new ArrayList<>();
    final List<Long> began = new ArrayList<>();

    Twin(int limit, long behind, int maxPerSource, int maxWaiting) {
      this.limit = limit;
      this.behind = behind;
      this.maxPerSource = maxPerSource;
      this.maxWaiting = maxWaiting;
    }

    Outcome request(int source, int p, long now) {
      long earliest = Long.MAX_VALUE;
      for (int i = 0; i < order.size(); i++) {
        if (sources.get(i) == source && states.get(i) == State.RUNNING) {
          earliest = Math.min(earliest, began.get(i));
        }
      }
      boolean isBehind =
          countFrom(source, State.WAITING) > 0
              || (countFrom(source, State.RUNNING) >= limit && now - earliest >= behind);
      if (!isBehind) {
        add(source, p, State.RUNNING, now);
        return Outcome.BEGIN;
      }
      if (countFrom(source, State.WAITING) >= maxPerSource || count(State.WAITING) >= maxWaiting) {
        add(source, p, State.RUNNING, now);
        return Outcome.OVERFLOW;
      }
      add(source, p, State.WAITING, now);
      return Outcome.WAIT;
    }

    List<Integer> end(int p, long now) {
      int i = order.indexOf(p);
      if (i < 0 || states.get(i) == State.ENDED) {
        return List.of();
      }
      boolean wasRunning = states.get(i) == State.RUNNING;
      states.set(i, State.ENDED);
      List<Integer> begun = new ArrayList<>();
      int source = sources.get(i);
      while (wasRunning
          && countFrom(source, State.RUNNING) < limit
          && countFrom(source, State.WAITING) > 0) {
        for (int j = 0; j < order.size(); j++) {
          if (sources.get(j) == source && states.get(j) == State.WAITING) {
            states.set(j, State.RUNNING);
            began.set(j, now);
            begun.add(order.get(j));
            break;
          }
        }
      }
      return begun;
    }

    private void add(int source, int p, State s, long now) {
      order.add(p);
      sources.add(source);
      states.add(s);
      began.add(now);
    }

    long count(State s) {
      return states.stream().filter(x -> x == s).count();
    }

    long countFrom(int source, State s) {
      return IntStream.range(0, order.size())
          .filter(i -> sources.get(i) == source && states.get(i) == s)
          .count();
    }

    long liveSources() {
      return IntStream.range(0, order.size())
          .filter(i -> states.get(i) != State.ENDED)
          .mapToObj(sources::get)
          .distinct()
          .count();
    }
  }

  @Property(tries = 300)
  void sameTurnsAsTheNaiveTwin(
      @ForAll long seed,
      @ForAll @IntRange(min = 1, max = 4) int limit,
      @ForAll @IntRange(min = 0, max = 3) int behindSteps,
      @ForAll @IntRange(min = 0, max = 5) int maxPerSource,
      @ForAll @IntRange(min = 0, max = 12) int maxWaiting) {
    Random r = new Random(seed);
    long behind = behindSteps * 10 * MS;
    HandshakeTurns<Integer> turns = new HandshakeTurns<>(limit, behind, maxPerSource, maxWaiting);
    Twin twin = new Twin(limit, behind, maxPerSource, maxWaiting);
    int parties = 2 + r.nextInt(30);
    int sourceCount = 1 + r.nextInt(4);
    boolean[] asked = new boolean[parties];
    long now = r.nextLong(); // nanoTime's origin is arbitrary: differences only
    for (int step = 0; step < 100; step++) {
      now += r.nextInt(3) == 0 ? 0 : r.nextInt(15) * MS;
      int p = r.nextInt(parties);
      if (!asked[p] && r.nextInt(3) > 0) {
        asked[p] = true;
        int source = r.nextInt(sourceCount);
        Outcome expected = twin.request(source, p, now);
        assertThat(turns.request(source, p, now))
            .as("step %d: %d from %d", step, p, source)
            .isEqualTo(expected);
      } else {
        assertThat(turns.end(p, now))
            .as("step %d: turns beginning when %d ends", step, p)
            .containsExactlyElementsOf(twin.end(p, now));
      }
      assertThat(turns.running()).isEqualTo(twin.count(State.RUNNING));
      assertThat(turns.waiting())
          .isEqualTo(twin.count(State.WAITING))
          .isLessThanOrEqualTo(maxWaiting);
      assertThat(turns.sources()).as("departed sources forgotten").isEqualTo(twin.liveSources());
      for (int s = 0; s < sourceCount; s++) {
        if (twin.countFrom(s, State.WAITING) > 0) {
          assertThat(twin.countFrom(s, State.RUNNING))
              .as("no one of source %d waits while it runs fewer than the limit", s)
              .isGreaterThanOrEqualTo(limit);
        }
      }
    }
  }

  /** The quiet case stop 41's turns slowed: 20 switches at once on a controller that keeps up. */
  @Example
  void aBurstThatKeepsUpNeverWaits() {
    HandshakeTurns<Integer> turns = new HandshakeTurns<>(2, 250 * MS, 256, 4096);
    long now = 0;
    for (int p = 0; p < 20; p++) {
      assertThat(turns.request("127.0.0.1", p, now)).as("switch %d", p).isEqualTo(Outcome.BEGIN);
      now += 5 * MS; // each ClientHello's server flight: milliseconds
    }
    assertThat(turns.running()).isEqualTo(20);
  }

  /**
   * Behind: the begun finish first, the rest wait their turn and begin as those end; once nothing
   * waits the source is free again.
   */
  @Example
  void aSourceBehindWaitsUntilItsBegunEnd() {
    HandshakeTurns<String> turns = new HandshakeTurns<>(2, 250 * MS, 256, 4096);
    assertThat(turns.request("host", "s0", 0)).isEqualTo(Outcome.BEGIN);
    assertThat(turns.request("host", "s1", 150 * MS)).isEqualTo(Outcome.BEGIN);
    assertThat(turns.request("host", "s2", 260 * MS)).isEqualTo(Outcome.WAIT);
    assertThat(turns.request("host", "s3", 261 * MS))
        .as("behind while anyone waits")
        .isEqualTo(Outcome.WAIT);
    assertThat(turns.end("s0", 300 * MS)).containsExactly("s2");
    assertThat(turns.end("s1", 320 * MS)).containsExactly("s3");
    assertThat(turns.request("host", "s4", 330 * MS))
        .as("nothing waits and the oldest running began 30 ms ago")
        .isEqualTo(Outcome.BEGIN);
  }

  /**
   * The denial of service stop 41's review asked about: a peer holding stalled handshakes and a
   * full queue at its address never makes a switch at another address wait; beyond the bounds its
   * own connections begin at once (as without turns) rather than being refused.
   */
  @Example
  void aStallingSourceNeverDelaysAnother() {
    HandshakeTurns<String> turns = new HandshakeTurns<>(2, 250 * MS, 256, 4096);
    long t = 1_000 * MS;
    assertThat(turns.request("attacker", "a0", 0)).isEqualTo(Outcome.BEGIN);
    assertThat(turns.request("attacker", "a1", 0)).isEqualTo(Outcome.BEGIN);
    for (int i = 2; i < 258; i++) {
      assertThat(turns.request("attacker", "a" + i, t)).isEqualTo(Outcome.WAIT);
    }
    assertThat(turns.request("attacker", "a258", t))
        .as("the 257th waiting from one source begins, as without turns")
        .isEqualTo(Outcome.OVERFLOW);
    assertThat(turns.request("switch", "s", t)).isEqualTo(Outcome.BEGIN);
    assertThat(turns.end("s", t)).isEmpty();
    assertThat(turns.end("a258", t)).as("the overflow ran, as a turn").isEmpty();
    assertThat(turns.end("a0", t)).containsExactly("a2");
    assertThat(turns.sources()).as("the switch's source is forgotten").isEqualTo(1);
  }

  @Example
  void theWholeQueueIsBounded() {
    HandshakeTurns<String> turns = new HandshakeTurns<>(1, 0, 256, 4096);
    for (int i = 0; i < 17; i++) {
      assertThat(turns.request("source" + i, "first" + i, 0)).isEqualTo(Outcome.BEGIN);
    }
    for (int i = 0; i < 4096; i++) {
      assertThat(turns.request("source" + (i / 256), "p" + i, 0)).isEqualTo(Outcome.WAIT);
    }
    assertThat(turns.request("source16", "late", 0))
        .as("its own source has nothing waiting, but the whole queue is full")
        .isEqualTo(Outcome.OVERFLOW);
    assertThat(turns.waiting()).isEqualTo(4096);
    assertThat(turns.running()).isEqualTo(18);
  }
}
