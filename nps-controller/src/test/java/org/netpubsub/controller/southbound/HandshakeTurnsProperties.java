package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.netpubsub.controller.southbound.HandshakeTurns.Outcome;

/**
 * {@link HandshakeTurns} against a naive twin: a list of every party in arrival order with its
 * source and state, rescanned after each step. A free turn goes to the waiting source running the
 * fewest turns, ties to the one with the oldest rotation stamp (stamped when it starts waiting and
 * when it is served with more still waiting), and within a source to its first waiting party; a
 * request beyond the waiting bounds is refused. Random histories of requests from a few sources and
 * ends, ends repeated and for parties that never asked, several limits and bounds: the same parties
 * begin at the same steps, in the same order, and the same ones are refused.
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
    final Map<Integer, Long> stamps = new HashMap<>();
    long clock;

    Twin(int limit, int maxPerSource, int maxWaiting) {
      this.limit = limit;
      this.maxPerSource = maxPerSource;
      this.maxWaiting = maxWaiting;
    }

    Outcome request(int source, int p) {
      if (count(State.RUNNING) < limit) {
        add(source, p, State.RUNNING);
        return Outcome.BEGIN;
      }
      if (waiting(source) >= maxPerSource || count(State.WAITING) >= maxWaiting) {
        return Outcome.REFUSED;
      }
      if (waiting(source) == 0) {
        stamps.put(source, clock++);
      }
      add(source, p, State.WAITING);
      return Outcome.WAIT;
    }

    List<Integer> end(int p) {
      int i = order.indexOf(p);
      if (i < 0 || states.get(i) == State.ENDED) {
        return List.of();
      }
      boolean wasRunning = states.get(i) == State.RUNNING;
      states.set(i, State.ENDED);
      return wasRunning ? settle() : List.of();
    }

    private void add(int source, int p, State s) {
      order.add(p);
      sources.add(source);
      states.add(s);
    }

    private List<Integer> settle() {
      List<Integer> begun = new ArrayList<>();
      while (count(State.RUNNING) < limit && count(State.WAITING) > 0) {
        int best = -1;
        for (int i = 0; i < order.size(); i++) {
          if (states.get(i) != State.WAITING) {
            continue;
          }
          int s = sources.get(i);
          if (best < 0 || better(s, sources.get(best))) {
            best = i;
          }
        }
        int s = sources.get(best);
        states.set(best, State.RUNNING);
        begun.add(order.get(best));
        if (waiting(s) > 0) {
          stamps.put(s, clock++);
        }
      }
      return begun;
    }

    /** Source {@code a} goes before {@code b}: fewer turns running, else an older stamp. */
    private boolean better(int a, int b) {
      long ra = running(a);
      long rb = running(b);
      return ra != rb ? ra < rb : stamps.get(a) < stamps.get(b);
    }

    long count(State s) {
      return states.stream().filter(x -> x == s).count();
    }

    long waiting(int source) {
      return countFrom(source, State.WAITING);
    }

    long running(int source) {
      return countFrom(source, State.RUNNING);
    }

    private long countFrom(int source, State s) {
      long n = 0;
      for (int i = 0; i < order.size(); i++) {
        if (sources.get(i) == source && states.get(i) == s) {
          n++;
        }
      }
      return n;
    }

    long liveSources() {
      return java.util.stream.IntStream.range(0, order.size())
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
    for (int step = 0; step < 100; step++) {
      int p = r.nextInt(parties);
      if (!asked[p] && r.nextInt(3) > 0) {
        asked[p] = true;
        int source = r.nextInt(sourceCount);
        Outcome expected = twin.request(source, p);
        assertThat(turns.request(source, p))
            .as("step %d: %d from %d", step, p, source)
            .isEqualTo(expected);
      } else {
        assertThat(turns.end(p))
            .as("step %d: turns beginning when %d ends", step, p)
            .containsExactlyElementsOf(twin.end(p));
      }
      assertThat(turns.running()).isEqualTo(twin.count(State.RUNNING)).isLessThanOrEqualTo(limit);
      assertThat(turns.waiting())
          .isEqualTo(twin.count(State.WAITING))
          .isLessThanOrEqualTo(maxWaiting);
      assertThat(turns.sources()).as("departed sources forgotten").isEqualTo(twin.liveSources());
      if (turns.waiting() > 0) {
        assertThat(turns.running()).as("no one waits while a turn is free").isEqualTo(limit);
      }
    }
  }

  /**
   * The denial of service the sources answer: an address holding both turns with stalled handshakes
   * and hundreds more queued delays a switch at another address by one turn, not by its queue; an
   * address alone still uses every turn; the rest beyond the bounds is refused.
   */
  @Example
  void aFloodFromOneSourceDelaysAnotherByOneTurn() {
    HandshakeTurns<String> turns = new HandshakeTurns<>(2, 256, 4096);
    assertThat(turns.request("attacker", "a0")).isEqualTo(Outcome.BEGIN);
    assertThat(turns.request("attacker", "a1"))
        .as("one source alone gets both")
        .isEqualTo(Outcome.BEGIN);
    for (int i = 2; i < 258; i++) {
      assertThat(turns.request("attacker", "a" + i)).isEqualTo(Outcome.WAIT);
    }
    assertThat(turns.request("attacker", "a258"))
        .as("the 257th waiting from one source")
        .isEqualTo(Outcome.REFUSED);
    assertThat(turns.request("switch", "s")).isEqualTo(Outcome.WAIT);

    assertThat(turns.end("a0"))
        .as("the first lease up goes to the other source")
        .containsExactly("s");
    assertThat(turns.end("a1")).containsExactly("a2");
    assertThat(turns.end("s")).containsExactly("a3");
    assertThat(turns.sources()).as("the switch's source is forgotten").isEqualTo(1);
  }

  @Example
  void theWholeQueueIsBounded() {
    HandshakeTurns<String> turns = new HandshakeTurns<>(1, 256, 4096);
    assertThat(turns.request("first", "x")).isEqualTo(Outcome.BEGIN);
    for (int i = 0; i < 4096; i++) {
      assertThat(turns.request("source" + (i / 256), "p" + i)).isEqualTo(Outcome.WAIT);
    }
    assertThat(turns.request("another", "late")).isEqualTo(Outcome.REFUSED);
    assertThat(turns.waiting()).isEqualTo(4096);
  }
}
