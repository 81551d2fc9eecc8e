package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The hold-back against its naive twin under random loss, late repair (some after the bound, some
 * never), duplication, reordering, best-effort messages and origin restarts, on two origins: the
 * same messages come out of both in the same order and the same numbers are counted lost; reliable
 * messages of a sequence come out in increasing order, nothing twice, and every number up to the
 * last one delivered is delivered or counted lost.
 */
class HoldBackProperties {
  record Msg(String key, long session, long seq, boolean reliable) {}

  private record Arrival(long at, int order, Msg msg) {}

  static final long HOLD = 40;

  @Property(tries = 400)
  void inOrderOnceOrCountedLostAndAsTheTwin(
      @ForAll @IntRange(min = 1, max = 200) int n,
      @ForAll @IntRange(min = 0, max = 40) int lossPercent,
      @ForAll @IntRange(min = 2, max = 64) int maxEntries,
      @ForAll long seed) {
    Random r = new Random(seed);
    List<Arrival> wire = new ArrayList<>();
    for (String key : List.of("paris", "rome")) {
      long t = r.nextInt(5);
      long session = 1 + r.nextInt(3);
      long base = r.nextLong(1L << 40);
      for (int i = 0; i < n; i++) {
        boolean first = i == 0;
        if (r.nextInt(100) == 0) { // the origin restarts: after everything of the old session
          t += 3 * HOLD;
          session++;
          base = r.nextLong(1L << 40) - i;
          first = true;
        }
        Msg m = new Msg(key, session, base + i, r.nextInt(5) != 0);
        t += r.nextInt(3);
        long at = first ? t : t + r.nextInt(4); // jitter reorders; the first starts the sequence
        if (first || r.nextInt(100) >= lossPercent) {
          wire.add(new Arrival(at, wire.size(), m));
        } else if (m.reliable() && r.nextInt(4) != 0) { // repaired, within the bound or after it
          wire.add(new Arrival(at + 1 + r.nextInt((int) (HOLD * 3 / 2)), wire.size(), m));
        }
        if (r.nextInt(8) == 0) {
          wire.add(new Arrival(at + r.nextInt(10), wire.size(), m)); // a second copy
        }
      }
    }
    wire.sort(Comparator.comparingLong(Arrival::at).thenComparingInt(Arrival::order));
    long maxBytes = (long) (maxEntries * 3 / 4 + 1) * (HoldBack.ENTRY_OVERHEAD + 10);
    HoldBack<Msg> real =
        new HoldBack<>(HOLD, 1L << 41, maxEntries, maxBytes, Long.MAX_VALUE, 16, Long.MAX_VALUE);
    NaiveHoldBack<Msg> twin = new NaiveHoldBack<>(HOLD, 1L << 41, maxEntries, maxBytes);
    List<Msg> got = new ArrayList<>();
    List<Msg> want = new ArrayList<>();
    long now = 0;
    for (Arrival a : wire) {
      while (now < a.at()) { // the worker's tick
        now++;
        real.due(now, got);
        twin.due(now, want);
      }
      Msg m = a.msg();
      real.offer(m.key(), "t", m.session(), m.seq(), m.reliable(), m, 10, now, got);
      twin.offer(m.key(), m.session(), m.seq(), m.reliable(), m, 10, now, want);
    }
    real.due(now + HOLD * 1000, got);
    twin.due(now + HOLD * 1000, want);

    for (String key : List.of("paris", "rome")) {
      assertThat(ofKey(got, key)).as("%s as the twin", key).isEqualTo(ofKey(want, key));
    }
    assertThat(real.lost()).isEqualTo(twin.lost);
    assertThat(real.held()).isZero();
    assertThat(real.heldBytes()).isZero();

    Set<Msg> once = new HashSet<>();
    Map<String, Long> lastReliable = new HashMap<>();
    Map<String, long[]> range = new HashMap<>(); // key/session -> {first, last, delivered}
    for (Msg m : got) {
      assertThat(once.add(m)).as("delivered twice: %s", m).isTrue();
      String ks = m.key() + "/" + m.session();
      if (m.reliable()) {
        Long last = lastReliable.put(ks, m.seq());
        assertThat(last == null || last < m.seq())
            .as("out of order: %s after %s", m, last)
            .isTrue();
      }
      long[] rg = range.computeIfAbsent(ks, k -> new long[] {m.seq(), m.seq(), 0});
      rg[1] = Math.max(rg[1], m.seq());
      rg[2]++;
      assertThat(m.seq()).as("the first of a sequence arrives first").isGreaterThanOrEqualTo(rg[0]);
    }
    long missing = 0;
    for (long[] rg : range.values()) {
      missing += rg[1] - rg[0] + 1 - rg[2];
    }
    assertThat(real.lost()).as("every number delivered or counted lost").isEqualTo(missing);
    if (lossPercent == 0 && maxEntries >= 48) { // jitter alone never fills 36 entries
      assertThat(real.lost()).isZero();
    }
  }

  private static List<Msg> ofKey(List<Msg> all, String key) {
    return all.stream().filter(m -> m.key().equals(key)).toList();
  }
}
