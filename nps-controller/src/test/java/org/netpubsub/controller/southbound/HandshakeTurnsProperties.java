package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.controller.southbound.HandshakeTurns.Outcome;

/**
 * {@link HandshakeTurns} against a naive twin: a list of every party in arrival order with its
 * source and state, rescanned at each step. A party begins at once unless the controller is slow
 * and its source has {@code limit} or more running; then it waits, unless its source's or all the
 * waiting are at their bound (it begins, overflowing). When a running party ends, its source's
 * earliest waiting begin: while slow until {@code limit} of that source run, else all. Random
 * histories of requests from a few sources and ends (repeated, and for parties that never asked),
 * the controller slow or not at random (in runs, as a loop's lag comes and goes), several limits
 * and bounds: the same outcomes, the same parties begin at the same steps in the same order, the
 * same counts.
 */
class HandshakeTurnsProperties {
  enum State {
    WAITING,
    RUNNING,
    ENDED
  }

  /** The naive twin: every arrival kept, the counts recomputed by scanning at each step. */
  static final class Twin {
    final int limit;
    final int maxPerSource;
    final int maxWaiting;
    final List<Integer> order = new ArrayList<>();
    final List<Integer> sources = new ArrayList<>();
    final List<State> states = new ArrayList<>();

    Twin(int limit, int maxPerSource, int maxWaiting) {
      this.limit = limit;
      this.maxPerSource = maxPerSource;
      this.maxWaiting = maxWaiting;
    }

    Outcome request(int source, int p, boolean slow) {
      if (!slow || countFrom(source, State.RUNNING) < limit) {
        add(source, p, State.RUNNING);
        return Outcome.BEGIN;
      }
      if (countFrom(source, State.WAITING) >= maxPerSource || count(State.WAITING) >= maxWaiting) {
        add(source, p, State.RUNNING);
        return Outcome.OVERFLOW;
      }
      add(source, p, State.WAITING);
      return Outcome.WAIT;
    }

    List<Integer> end(int p, boolean slow) {
      int i = order.indexOf(p);
      if (i < 0 || states.get(i) == State.ENDED) {
        return List.of();
      }
      boolean wasRunning = states.get(i) == State.RUNNING;
      states.set(i, State.ENDED);
      List<Integer> begun = new ArrayList<>();
      int source = sources.get(i);
      while (wasRunning
          && (!slow || countFrom(source, State.RUNNING) < limit)
          && countFrom(source, State.WAITING) > 0) {
        for (int j = 0; j < order.size(); j++) {
          if (sources.get(j) == source && states.get(j) == State.WAITING) {
            states.set(j, State.RUNNING);
            begun.add(order.get(j));
            break;
          }
        }
      }
      return begun;
    }

    private void add(int source, int p, State s) {
      order.add(p);
      sources.add(source);
      states.add(s);
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
      @ForAll @IntRange(min = 0, max = 5) int maxPerSource,
      @ForAll @IntRange(min = 0, max = 12) int maxWaiting) {
    Random r = new Random(seed);
    HandshakeTurns<Integer> turns = new HandshakeTurns<>(limit, maxPerSource, maxWaiting);
    Twin twin = new Twin(limit, maxPerSource, maxWaiting);
    int parties = 2 + r.nextInt(30);
    int sourceCount = 1 + r.nextInt(4);
    boolean[] asked = new boolean[parties];
    boolean slow = r.nextBoolean();
    for (int step = 0; step < 100; step++) {
      if (r.nextInt(8) == 0) {
        slow = !slow;
      }
      int p = r.nextInt(parties);
      if (!asked[p] && r.nextInt(3) > 0) {
        asked[p] = true;
        int source = r.nextInt(sourceCount);
        Outcome expected = twin.request(source, p, slow);
        assertThat(turns.request(source, p, slow))
            .as("step %d: %d from %d", step, p, source)
            .isEqualTo(expected);
      } else {
        assertThat(turns.end(p, slow))
            .as("step %d: turns beginning when %d ends", step, p)
            .containsExactlyElementsOf(twin.end(p, slow));
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
  void aBurstWhileTheControllerKeepsUpNeverWaits() {
    HandshakeTurns<Integer> turns = new HandshakeTurns<>(2, 256, 4096);
    for (int p = 0; p < 20; p++) {
      assertThat(turns.request("127.0.0.1", p, false)).as("switch %d", p).isEqualTo(Outcome.BEGIN);
    }
    assertThat(turns.running()).isEqualTo(20);
  }

  /**
   * Slow: the begun finish first, the rest wait and begin two at a time as those end; once the
   * controller keeps up again, an end lets all of them begin.
   */
  @Example
  void whileSlowTheBegunFinishFirst() {
    HandshakeTurns<String> turns = new HandshakeTurns<>(2, 256, 4096);
    assertThat(turns.request("host", "s0", true)).isEqualTo(Outcome.BEGIN);
    assertThat(turns.request("host", "s1", true)).isEqualTo(Outcome.BEGIN);
    for (int i = 2; i < 6; i++) {
      assertThat(turns.request("host", "s" + i, true)).isEqualTo(Outcome.WAIT);
    }
    assertThat(turns.end("s0", true)).containsExactly("s2");
    assertThat(turns.end("s1", false))
        .as("the controller keeps up again: every waiting begins")
        .containsExactly("s3", "s4", "s5");
    assertThat(turns.waiting()).isZero();
  }

  /**
   * The denial of service stop 41's review asked about: a peer holding stalled handshakes and a
   * full queue at its address never makes a switch at another address wait beyond that address's
   * own two turns; beyond the bounds its own connections begin at once (as without turns) rather
   * than being refused.
   */
  @Example
  void aStallingSourceNeverDelaysAnother() {
    HandshakeTurns<String> turns = new HandshakeTurns<>(2, 256, 4096);
    assertThat(turns.request("attacker", "a0", true)).isEqualTo(Outcome.BEGIN);
    assertThat(turns.request("attacker", "a1", true)).isEqualTo(Outcome.BEGIN);
    for (int i = 2; i < 258; i++) {
      assertThat(turns.request("attacker", "a" + i, true)).isEqualTo(Outcome.WAIT);
    }
    assertThat(turns.request("attacker", "a258", true))
        .as("the 257th waiting from one source begins, as without turns")
        .isEqualTo(Outcome.OVERFLOW);
    assertThat(turns.request("switch", "s", true)).isEqualTo(Outcome.BEGIN);
    assertThat(turns.request("switch", "s'", true)).isEqualTo(Outcome.BEGIN);
    assertThat(turns.end("s", true)).isEmpty();
    assertThat(turns.end("s'", true)).isEmpty();
    assertThat(turns.end("a258", true)).as("the overflow ran, as a turn").isEmpty();
    assertThat(turns.end("a0", true)).containsExactly("a2");
    assertThat(turns.sources()).as("the switch's source is forgotten").isEqualTo(1);
  }

  @Example
  void theWholeQueueIsBounded() {
    HandshakeTurns<String> turns = new HandshakeTurns<>(1, 256, 4096);
    for (int i = 0; i < 17; i++) {
      assertThat(turns.request("source" + i, "first" + i, true)).isEqualTo(Outcome.BEGIN);
    }
    for (int i = 0; i < 4096; i++) {
      assertThat(turns.request("source" + (i / 256), "p" + i, true)).isEqualTo(Outcome.WAIT);
    }
    assertThat(turns.request("source16", "late", true))
        .as("its own source has nothing waiting, but the whole queue is full")
        .isEqualTo(Outcome.OVERFLOW);
    assertThat(turns.waiting()).isEqualTo(4096);
    assertThat(turns.running()).isEqualTo(18);
  }
}
