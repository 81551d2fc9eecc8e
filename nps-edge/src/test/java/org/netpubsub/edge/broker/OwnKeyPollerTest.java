package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.EdgeKeys;
import org.netpubsub.edge.link.TestKeys;

/**
 * An own-key agent's keys from the coordinator, with a fake coordinator and a fake clock, refreshed
 * by hand (no sleep; the thread's first refresh is an hour away): a sender added, a failed refresh
 * keeping the last good set, a revocation and a removal taking effect at the next refresh, a
 * malformed answer refused; the backoff against a naive twin.
 */
class OwnKeyPollerTest {
  private static final Duration INTERVAL = Duration.ofHours(1);

  private final Deque<Object> answers = new ArrayDeque<>();
  private final AtomicLong clock = new AtomicLong(1_000);
  private final OwnKeyPoller.Source coordinator =
      () -> {
        Object a = answers.poll();
        if (a instanceof CoordinatorClient.CoordinatorException e) {
          throw e;
        }
        return (OwnKeyPoller.Served) a;
      };

  private static List<byte[]> own(String edge) {
    return EdgeKeys.derive(TestKeys.AUTH.keys(), edge);
  }

  private static OwnKeyPoller.Served served(Set<String> revoked, String... senders) {
    Map<String, List<byte[]>> m = new java.util.HashMap<>();
    for (String s : senders) {
      m.put(s, own(s));
    }
    return new OwnKeyPoller.Served(own("paris"), m, revoked);
  }

  /** Whether {@code keys} accepts a message in {@code origin}'s name sealed under its own key. */
  private static boolean accepts(AgentKeys keys, String origin) throws DatagramException {
    byte[] d =
        TestKeys.seal(
            DatagramAuth.of(own(origin)),
            DatagramCodec.encode(
                new EdgeMessage(origin, 1, "t", "x".getBytes(StandardCharsets.UTF_8), 1, false)));
    return keys.open(d, 0, d.length, null) >= 0;
  }

  @Test
  void refreshesApplyAddedSendersRevocationsAndRemovalsAndFailuresKeepTheLastGoodSet()
      throws IOException, DatagramException {
    answers.add(served(Set.of(), "oslo"));
    try (OwnKeyPoller p = OwnKeyPoller.fetch(coordinator, INTERVAL, clock::get)) {
      AgentKeys keys = AgentKeys.ownKey("paris", p.auth(), p.senders());
      keys.revoke(p.revoked());
      p.start("paris", keys);
      assertThat(accepts(keys, "oslo")).isTrue();
      assertThat(accepts(keys, "rome")).isFalse();
      assertThat(keys.refusal()).isEqualTo("origin_key_unknown");
      assertThat(accepts(keys, "paris")).isTrue(); // its own key: NACKs to it, its own copies

      answers.add(served(Set.of(), "oslo", "rome")); // rome registered at the coordinator
      p.poll();
      assertThat(accepts(keys, "rome")).isTrue();

      answers.add(new CoordinatorClient.CoordinatorException(0, "coordinator unreachable"));
      answers.add(new OwnKeyPoller.Served(List.of(), Map.of(), Set.of())); // malformed: no key
      p.poll();
      p.poll();
      assertThat(accepts(keys, "rome")).isTrue(); // the last good set
      assertThat(accepts(keys, "paris")).isTrue();
      assertThat(p.counters())
          .containsEntry("key_polls", 3L)
          .containsEntry("key_poll_failures", 2L)
          .containsEntry("sender_keys_held", 2L);

      answers.add(served(Set.of("rome"), "oslo")); // rome revoked
      p.poll();
      assertThat(accepts(keys, "rome")).isFalse();
      assertThat(keys.refusal()).isEqualTo("revoked_origin");
      answers.add(served(Set.of())); // oslo removed, nothing revoked
      p.poll();
      assertThat(accepts(keys, "oslo")).isFalse();
      assertThat(keys.refusal()).isEqualTo("origin_key_unknown");
      assertThat(p.counters())
          .containsEntry("sender_keys_held", 0L)
          .containsEntry("edges_revoked", 0L)
          .containsEntry("key_poll_failures", 2L);
    }
  }

  /**
   * A datagram in a name the agent holds no key of asks for one refresh early, on the refresh
   * thread: at most one per {@link KeyRefresh#EARLY_EVERY} of the (fake) clock however many arrive,
   * none before the thread starts or while refreshes fail.
   */
  @Test
  void anUnknownSenderAsksForOneEarlyRefreshAtMostOncePerBound() throws Exception {
    answers.add(served(Set.of(), "oslo"));
    try (OwnKeyPoller p = OwnKeyPoller.fetch(coordinator, INTERVAL, clock::get)) {
      AgentKeys keys = AgentKeys.ownKey("paris", p.auth(), p.senders());
      assertThat(p.soon()).isFalse(); // not started
      p.start("paris", keys);
      assertThat(accepts(keys, "rome")).isFalse(); // rome registered since: not known yet
      answers.add(served(Set.of(), "oslo", "rome"));
      assertThat(p.soon()).isTrue();
      org.netpubsub.client.Poll.until(
          "the early refresh",
          Duration.ofSeconds(10),
          () -> p.counters().get("sender_keys_held") == 2L);
      assertThat(accepts(keys, "rome")).isTrue();
      int asked = 0;
      for (int i = 0; i < 10_000; i++) { // a flood of unknown names within the bound: no refresh
        asked += p.soon() ? 1 : 0;
      }
      clock.addAndGet(KeyRefresh.EARLY_EVERY.toNanos() - 1);
      asked += p.soon() ? 1 : 0;
      assertThat(asked).isZero();
      assertThat(p.counters())
          .containsEntry("key_polls", 1L)
          .containsEntry("key_early_refreshes", 1L);

      clock.addAndGet(1); // the bound passed: one more, and only one
      answers.add(new CoordinatorClient.CoordinatorException(0, "coordinator unreachable"));
      assertThat(p.soon()).isTrue();
      assertThat(p.soon()).isFalse();
      org.netpubsub.client.Poll.until(
          "the failed early refresh",
          Duration.ofSeconds(10),
          () -> p.counters().get("key_poll_failures") == 1L);
      clock.addAndGet(KeyRefresh.EARLY_EVERY.toNanos());
      assertThat(p.soon()).isFalse(); // failing: the backoff holds, whatever the remote sends
      assertThat(accepts(keys, "rome")).isTrue(); // the last good set
      assertThat(p.counters())
          .containsEntry("key_polls", 2L)
          .containsEntry("key_early_refreshes", 2L);
    }
  }

  @Test
  void aFirstFetchThatFailsIsOneLine() {
    answers.add(
        new CoordinatorClient.CoordinatorException(
            403, "coordinator: GET /v1/edges/paris/keys?own=true → 403: edge 'paris' is revoked"));
    assertThatThrownBy(() -> OwnKeyPoller.fetch(coordinator, INTERVAL, clock::get))
        .isInstanceOf(IOException.class)
        .hasMessageStartingWith("cannot fetch the agent's own keys from the coordinator")
        .hasMessageContaining("403")
        .hasMessageNotContaining("\n");
    answers.add(new OwnKeyPoller.Served(List.of(new byte[3]), Map.of(), Set.of()));
    assertThatThrownBy(() -> OwnKeyPoller.fetch(coordinator, INTERVAL, clock::get))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("at least 32");
  }

  @Test
  void theBackoffDoublesFromTheIntervalToItsBound() {
    long s = Duration.ofSeconds(30).toNanos();
    assertThat(OwnKeyPoller.delay(s, 0)).isEqualTo(s);
    assertThat(OwnKeyPoller.delay(s, 1)).isEqualTo(2 * s);
    assertThat(OwnKeyPoller.delay(s, 3)).isEqualTo(8 * s);
    assertThat(OwnKeyPoller.delay(s, 4)).isEqualTo(OwnKeyPoller.MAX_BACKOFF.toNanos());
    long h = Duration.ofHours(1).toNanos(); // an interval over the bound: never longer than it
    assertThat(OwnKeyPoller.delay(h, 5)).isEqualTo(h);
  }

  /** The backoff against a naive twin in exact arithmetic, for every interval the agent allows. */
  @Property(tries = 500)
  void theBackoffEqualsANaiveTwin(
      @ForAll @LongRange(min = 100_000_000L, max = 3_600_000_000_000L) long interval,
      @ForAll @IntRange(min = 0, max = 200) int failed) {
    BigInteger cap = BigInteger.valueOf(Math.max(interval, OwnKeyPoller.MAX_BACKOFF.toNanos()));
    BigInteger d = BigInteger.valueOf(interval).shiftLeft(failed);
    long expected = failed == 0 ? interval : d.min(cap).longValueExact();
    assertThat(OwnKeyPoller.delay(interval, failed)).isEqualTo(expected);
  }
}
