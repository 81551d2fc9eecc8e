package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link HandshakeTurns} against a naive twin: a list of every party in arrival order with its
 * state, rescanned from the start after each step (the first waiting parties run while fewer than
 * the limit do). Random histories of requests and ends, ends repeated and for parties that never
 * asked, several limits: the same parties begin at the same steps, in the same order.
 */
class HandshakeTurnsProperties {

  enum State {
    WAITING,
    RUNNING,
    ENDED
  }

  /** The naive twin: every arrival kept, the running ones recounted at each step. */
  static final class Twin {
    final int limit;
    final List<Integer> order = new ArrayList<>();
    final List<State> states = new ArrayList<>();

    Twin(int limit) {
      this.limit = limit;
    }

    List<Integer> request(int p) {
      order.add(p);
      states.add(State.WAITING);
      return settle();
    }

    List<Integer> end(int p) {
      int i = order.indexOf(p);
      if (i >= 0) {
        boolean wasRunning = states.get(i) == State.RUNNING;
        states.set(i, State.ENDED);
        if (wasRunning) {
          return settle();
        }
      }
      return List.of();
    }

    private List<Integer> settle() {
      List<Integer> begun = new ArrayList<>();
      for (int i = 0; i < order.size(); i++) {
        long running = states.stream().filter(s -> s == State.RUNNING).count();
        if (states.get(i) == State.WAITING && running < limit) {
          states.set(i, State.RUNNING);
          begun.add(order.get(i));
        }
      }
      return begun;
    }

    long count(State s) {
      return states.stream().filter(x -> x == s).count();
    }
  }

  @Property(tries = 300)
  void sameTurnsAsTheNaiveTwin(@ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int limit) {
    Random r = new Random(seed);
    HandshakeTurns<Integer> turns = new HandshakeTurns<>(limit);
    Twin twin = new Twin(limit);
    int parties = 2 + r.nextInt(14);
    boolean[] asked = new boolean[parties];
    for (int step = 0; step < 60; step++) {
      int p = r.nextInt(parties);
      if (!asked[p] && r.nextInt(3) > 0) {
        asked[p] = true;
        List<Integer> expected = twin.request(p);
        boolean now = turns.request(p);
        assertThat(now)
            .as("step %d: %d's turn begins at once", step, p)
            .isEqualTo(expected.contains(p));
        assertThat(expected).as("a request starts no one else").isSubsetOf(List.of(p));
      } else {
        assertThat(turns.end(p))
            .as("step %d: turns beginning when %d ends", step, p)
            .containsExactlyElementsOf(twin.end(p));
      }
      assertThat(turns.running()).isEqualTo(twin.count(State.RUNNING)).isLessThanOrEqualTo(limit);
      assertThat(turns.waiting()).isEqualTo(twin.count(State.WAITING));
      if (turns.waiting() > 0) {
        assertThat(turns.running()).as("no one waits while a turn is free").isEqualTo(limit);
      }
    }
  }
}
