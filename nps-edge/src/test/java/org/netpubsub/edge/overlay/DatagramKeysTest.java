package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/** The key znode's content and what a party accepts of it over time (pure; no ZooKeeper). */
class DatagramKeysTest {
  private static final byte[] A = HexFormat.of().parseHex("a1".repeat(32));
  private static final byte[] B = HexFormat.of().parseHex("b2".repeat(32));
  private static final byte[] C = HexFormat.of().parseHex("c3".repeat(32));
  private static final Duration GRACE = Duration.ofSeconds(60);

  @Test
  void aRotationProposesThenPromotesAndTheJsonRoundTrips() {
    DatagramKeys k = DatagramKeys.first(A, GRACE);
    DatagramKeys proposed = k.propose(B);
    assertThat(proposed.current().id()).isEqualTo(1);
    assertThat(proposed.next().id()).isEqualTo(2);
    assertThat(proposed.highestId()).isEqualTo(2);
    DatagramKeys promoted = proposed.promote();
    assertThat(promoted.current().key()).isEqualTo(B);
    assertThat(promoted.previous().key()).isEqualTo(A);
    assertThat(promoted.next()).isNull();
    for (DatagramKeys d : List.of(k, proposed, promoted)) {
      DatagramKeys back = DatagramKeys.parse(d.toJson());
      assertThat(back.toString()).isEqualTo(d.toString());
      assertThat(back.toJson()).isEqualTo(d.toJson());
    }
    assertThat(new String(promoted.toJson(), StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"current\":{\"id\":2,\"key\":\""
                + "b2".repeat(32)
                + "\"},\"previous\":{\"id\":1,\"key\":\""
                + "a1".repeat(32)
                + "\"},\"grace_ms\":60000}");
    assertThatThrownBy(k::promote).hasMessageContaining("no next key");
  }

  @Test
  void badZnodesAreRefusedNamingTheFieldAndNeverQuotingAKey() {
    String key = "d4".repeat(32);
    for (String[] bad :
        new String[][] {
          {"", "empty"},
          {"{\"current\":{\"id\":1,\"key\":\"" + key + "\"", "not JSON"},
          {"[]", "not a JSON object"},
          {"{\"current\":{\"id\":1,\"key\":\"" + key + "\"}}", "'grace_ms'"},
          {"{\"current\":{\"id\":1,\"key\":\"" + key + "\"},\"grace_ms\":1,\"x\":1}", "'x'"},
          {"{\"current\":{\"id\":1,\"key\":\"zz" + key + "\"},\"grace_ms\":1}", "'current.key'"},
          {"{\"current\":{\"id\":1,\"key\":\"abcd\"},\"grace_ms\":1}", "at least 32"},
          {"{\"current\":{\"id\":0,\"key\":\"" + key + "\"},\"grace_ms\":1}", "at least 1"},
          {"{\"grace_ms\":1}", "'current' is required"},
          {"{\"current\":{\"id\":1,\"key\":\"" + key + "\"},\"grace_ms\":-1}", "'grace_ms'"},
          {
            "{\"current\":{\"id\":2,\"key\":\""
                + key
                + "\"},\"previous\":{\"id\":2,\"key\":\""
                + key
                + "\"},\"grace_ms\":1}",
            "'previous'"
          },
        }) {
      assertThatThrownBy(() -> DatagramKeys.parse(bad[0].getBytes(StandardCharsets.UTF_8)))
          .as(bad[0])
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining(bad[1])
          .message()
          .doesNotContain(key)
          .doesNotContain("d4d4");
    }
    assertThat(DatagramKeys.first(A, GRACE).toString()).doesNotContain("a1a1");
  }

  @Test
  void theCurrentKeySignsTheNextIsAcceptedAndThePreviousOnlyForTheGrace() {
    KeyGrace g = new KeyGrace();
    DatagramKeys proposed = DatagramKeys.first(A, GRACE).propose(B);
    assertThat(g.accepted(proposed, 0)).containsExactly(A, B);
    assertThat(g.untilChange(proposed, 0)).isEqualTo(-1);
    DatagramKeys promoted = proposed.promote();
    long seen = 5_000_000_000L; // the grace runs from when this party sees the rotation
    assertThat(g.accepted(promoted, seen)).containsExactly(B, A);
    assertThat(g.untilChange(promoted, seen + 1)).isEqualTo(GRACE.toNanos() - 1);
    assertThat(g.accepted(promoted, seen + GRACE.toNanos() - 1)).containsExactly(B, A);
    assertThat(g.accepted(promoted, seen + GRACE.toNanos())).containsExactly(B);
    assertThat(g.untilChange(promoted, seen + GRACE.toNanos())).isEqualTo(-1);
    // two rotations within one grace: C signs, B is previous, and A is still held for its grace
    DatagramKeys once = DatagramKeys.first(A, GRACE).propose(B).promote();
    DatagramKeys twice = once.propose(C).promote();
    KeyGrace h = new KeyGrace();
    assertThat(h.accepted(once, 0)).containsExactly(B, A);
    assertThat(h.accepted(twice, 1_000)).containsExactly(C, A, B);
    assertThat(h.accepted(twice, GRACE.toNanos())).containsExactly(C, B);
    assertThat(h.accepted(twice, GRACE.toNanos() + 1_000)).containsExactly(C);
  }

  /**
   * Against a naive twin: accepted = current, next, and every key seen stop signing (as previous or
   * as a replaced current) while now < first seen so + grace.
   */
  @Property
  void keyGraceMatchesItsDefinition(
      @ForAll @IntRange(min = 1, max = 30) int steps,
      @ForAll @LongRange(min = 0, max = 1_000) long graceMs,
      @ForAll("seeds") long seed) {
    java.util.Random r = new java.util.Random(seed);
    KeyGrace g = new KeyGrace();
    DatagramKeys k = DatagramKeys.first(A, Duration.ofMillis(graceMs));
    long now = 0;
    java.util.Map<Long, Long> retiredSince = new java.util.HashMap<>();
    for (int i = 0; i < steps; i++) {
      now += r.nextInt(400) * 1_000_000L;
      switch (r.nextInt(3)) {
        case 0 -> k = k.next() == null ? k.propose(r.nextBoolean() ? B : C) : k;
        case 1 -> {
          if (k.next() != null) {
            retiredSince.putIfAbsent(k.current().id(), now);
            k = k.promote();
          }
        }
        default -> {}
      }
      long t = now;
      long held = retiredSince.values().stream().filter(s -> t - s < graceMs * 1_000_000L).count();
      int expected = 1 + (k.next() != null ? 1 : 0) + (int) Math.min(held, KeyGrace.MAX_RETIRED);
      assertThat(g.accepted(k, now)).hasSize(expected).first().isEqualTo(k.current().key());
    }
  }

  @net.jqwik.api.Provide
  net.jqwik.api.Arbitrary<Long> seeds() {
    return net.jqwik.api.Arbitraries.longs();
  }
}
