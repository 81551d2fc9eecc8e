package org.netpubsub.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.link.TestKeys;

/**
 * An agent's keys from the coordinator, with a fake coordinator and a fake clock, polled by hand
 * (no thread, no sleep): the first fetch, the three steps of a key-file rotation, the grace of a
 * removed key, and failed polls that keep the keys.
 */
class KeyPollerTest {
  private static final byte[] K1 = HexFormat.of().parseHex("11".repeat(32));
  private static final byte[] K2 = HexFormat.of().parseHex("22".repeat(32));
  private static final Duration INTERVAL = Duration.ofSeconds(30);

  /** What the fake coordinator answers next: keys, or a refusal. */
  private final Deque<Object> answers = new ArrayDeque<>();

  private final AtomicLong clock = new AtomicLong(1_000);

  private final KeyPoller.Source coordinator =
      () -> {
        Object a = answers.isEmpty() ? null : answers.poll();
        if (a instanceof CoordinatorClient.CoordinatorException e) {
          throw e;
        }
        if (a instanceof KeyPoller.Served s) {
          return s;
        }
        @SuppressWarnings("unchecked")
        List<byte[]> keys = (List<byte[]>) a;
        return keys == null ? null : new KeyPoller.Served(keys, java.util.Set.of());
      };

  private KeyPoller start(List<byte[]> first) throws IOException {
    answers.add(first);
    return KeyPoller.fetch(coordinator, INTERVAL, clock::get);
  }

  private static byte[] sealed(DatagramAuth by) {
    byte[] d = Arrays.copyOf("hello".getBytes(), 5 + DatagramAuth.TAG);
    by.seal(d, 0, 5);
    return d;
  }

  private static boolean accepts(DatagramAuth auth, byte[] key) {
    byte[] d = sealed(DatagramAuth.of(List.of(key)));
    return auth.open(d, 0, d.length) == 5;
  }

  /** Whether {@code auth} signs with {@code key}: a receiver holding only it accepts. */
  private static boolean signsWith(DatagramAuth auth, byte[] key) {
    byte[] d = sealed(auth);
    return DatagramAuth.of(List.of(key)).open(d, 0, d.length) == 5;
  }

  private void advance(Duration d) {
    clock.addAndGet(d.toNanos());
  }

  @Test
  void aFailedFirstFetchIsOneClearLine() {
    answers.add(new CoordinatorClient.CoordinatorException(403, "coordinator: GET … → 403: no"));
    assertThatThrownBy(() -> KeyPoller.fetch(coordinator, INTERVAL, clock::get))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "cannot fetch the datagram keys from the coordinator: coordinator: GET … → 403: no");
    answers.add(List.of(HexFormat.of().parseHex("0011")));
    assertThatThrownBy(() -> KeyPoller.fetch(coordinator, INTERVAL, clock::get))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("2 bytes, at least 32")
        .hasMessageNotContaining("0011");
  }

  @Test
  void aRotationOfTheCoordinatorsFileIsFollowedAndTheOldKeyKeptForOneInterval() throws Exception {
    KeyPoller p = start(List.of(K1));
    DatagramAuth auth = p.auth();
    assertThat(signsWith(auth, K1)).isTrue();
    assertThat(accepts(auth, K2)).isFalse();

    answers.add(List.of(K1, K2)); // step 1: the new key accepted, not signing
    p.poll();
    assertThat(signsWith(auth, K1)).isTrue();
    assertThat(accepts(auth, K2)).isTrue();
    assertThat(p.counters()).containsEntry("key_rotations", 0L).containsEntry("keys_held", 2L);

    advance(INTERVAL);
    answers.add(List.of(K2, K1)); // step 2: the new key signs, the old one still verifies
    p.poll();
    assertThat(signsWith(auth, K2)).isTrue();
    assertThat(accepts(auth, K1)).isTrue();
    assertThat(p.counters()).containsEntry("key_rotations", 1L);

    advance(INTERVAL);
    answers.add(List.of(K2)); // step 3: the old key removed; kept for one interval
    p.poll();
    assertThat(accepts(auth, K1)).isTrue();
    assertThat(p.counters()).containsEntry("keys_held", 2L);
    advance(INTERVAL.minusNanos(1));
    answers.add(List.of(K2));
    p.poll();
    assertThat(accepts(auth, K1)).isTrue();
    advance(Duration.ofNanos(1));
    answers.add(List.of(K2));
    p.poll();
    assertThat(accepts(auth, K1)).isFalse();
    assertThat(signsWith(auth, K2)).isTrue();
    assertThat(p.counters())
        .containsEntry("key_polls", 5L)
        .containsEntry("key_poll_failures", 0L)
        .containsEntry("key_rotations", 1L)
        .containsEntry("keys_held", 1L);
  }

  @Test
  void aFailedPollKeepsTheKeysAndIsCountedButAGraceStillEnds() throws Exception {
    KeyPoller p = start(List.of(K1, K2));
    answers.add(List.of(K2)); // K1 leaves: in grace from now
    p.poll();
    answers.add(new CoordinatorClient.CoordinatorException(0, "coordinator unreachable"));
    p.poll();
    answers.add(List.of(HexFormat.of().parseHex("0011"))); // a short key: refused, keys kept
    p.poll();
    assertThat(signsWith(p.auth(), K2)).isTrue();
    assertThat(accepts(p.auth(), K1)).isTrue();
    assertThat(p.counters()).containsEntry("key_polls", 3L).containsEntry("key_poll_failures", 2L);

    advance(INTERVAL);
    answers.add(new CoordinatorClient.CoordinatorException(503, "coordinator: … → 503"));
    p.poll();
    assertThat(accepts(p.auth(), K1)).isFalse(); // its grace ended while the coordinator was away
    assertThat(signsWith(p.auth(), K2)).isTrue();
    assertThat(p.counters()).containsEntry("key_poll_failures", 3L);

    answers.add(List.of(K2, K1)); // answers again
    p.poll();
    assertThat(accepts(p.auth(), K1)).isTrue();
    assertThat(p.counters()).containsEntry("key_poll_failures", 3L).containsEntry("key_polls", 5L);
  }

  @Test
  void heldKeysKeepAtMostFourRetiredKeysAndAKeyListedAgainLeavesItsGrace() {
    HeldKeys h = new HeldKeys(100);
    byte[][] keys = new byte[7][];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = HexFormat.of().parseHex(String.format("%02x", i + 1).repeat(32));
    }
    assertThat(h.served(List.of(keys[0]), 0)).isFalse();
    for (int i = 1; i < keys.length; i++) {
      assertThat(h.served(List.of(keys[i]), i)).isTrue();
    }
    List<byte[]> now = h.accepted(6);
    assertThat(now).hasSize(1 + HeldKeys.MAX_RETIRED);
    assertThat(now.get(0)).isEqualTo(keys[6]);
    assertThat(now.subList(1, now.size())).containsExactly(keys[2], keys[3], keys[4], keys[5]);
    h.served(List.of(keys[6], keys[3]), 7); // listed again: not retired any more
    assertThat(h.accepted(500)).containsExactly(keys[6], keys[3]);
  }

  /** A datagram naming {@code origin}, sealed under {@code key}. */
  private static byte[] from(String origin, byte[] key) throws Exception {
    byte[] d =
        DatagramCodec.encode(
            new EdgeMessage(
                origin, 7, "t/1", "x".getBytes(java.nio.charset.StandardCharsets.UTF_8), 0, false));
    return TestKeys.seal(DatagramAuth.of(List.of(key)), d);
  }

  private static boolean opens(AgentKeys k, byte[] d) {
    return k.open(d, 0, d.length, null) >= 0;
  }

  @Test
  void theCoordinatorsRevokedEdgesAreRefusedBesideThisHostsOwnAndATooLongListIsRefusedWhole()
      throws Exception {
    KeyPoller p = start(List.of(K1));
    AgentKeys k = AgentKeys.deployment("paris", p.auth());
    k.revoke(java.util.Set.of("milan")); // this host's --revoked-edges
    k.revokedByCoordinator(p.revoked());
    p.start("paris", k);
    try {
      assertThat(opens(k, from("rome", K1))).isTrue();
      answers.add(new KeyPoller.Served(List.of(K1), java.util.Set.of("rome")));
      p.poll(); // the next refresh: rome refused whatever its key, milan still
      assertThat(opens(k, from("rome", K1))).isFalse();
      assertThat(k.refusal()).isEqualTo("revoked_origin");
      assertThat(opens(k, from("milan", K1))).isFalse();
      assertThat(opens(k, from("oslo", K1))).isTrue();
      assertThat(k.revoked()).containsExactlyInAnyOrder("rome", "milan");
      assertThat(p.counters()).containsEntry("edges_revoked", 1L);

      // one name over the bound: refused whole and counted, the set held stays
      java.util.Set<String> many = new java.util.HashSet<>();
      for (int i = 0; i <= AgentKeys.MAX_SENDERS; i++) {
        many.add("e" + i);
      }
      answers.add(new KeyPoller.Served(List.of(K1), many));
      p.poll();
      assertThat(p.counters()).containsEntry("key_poll_failures", 1L);
      assertThat(k.revoked()).containsExactlyInAnyOrder("rome", "milan");

      answers.add(new KeyPoller.Served(List.of(K1), java.util.Set.of())); // lifted there
      p.poll();
      assertThat(opens(k, from("rome", K1))).isTrue();
      assertThat(opens(k, from("milan", K1))).isFalse(); // this host's list is its own
      k.revoke(java.util.Set.of());
      assertThat(opens(k, from("milan", K1))).isTrue();
    } finally {
      p.close();
    }
  }
}
