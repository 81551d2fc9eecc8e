package org.netpubsub.controller.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * {@link CpuShare} against its naive twin, every charge kept in a list: over random charges of
 * three keys at random times, each key's use in the window, whether it is over, and the wait it is
 * told (the first moment it is under again, no sooner) agree; and the state stays bounded.
 */
class CpuShareProperties {
  private static final long WINDOW = 1000;
  private static final long BUCKET = WINDOW / CpuShare.BUCKETS;
  private static final long BUDGET = 500;

  private record Charge(String key, long at, long nanos) {}

  /** The twin: the sum of the key's charges whose bucket is one of the window's ten. */
  private static long naiveUsed(List<Charge> charges, String key, long now) {
    long current = Math.floorDiv(now, BUCKET);
    return charges.stream()
        .filter(c -> c.key.equals(key))
        .filter(c -> Math.floorDiv(c.at, BUCKET) > current - CpuShare.BUCKETS)
        .mapToLong(Charge::nanos)
        .sum();
  }

  @Property(tries = 200)
  void useOverAndWaitAgreeWithTheNaiveTwin(@ForAll long seed) {
    Random r = new Random(seed);
    CpuShare share = new CpuShare(WINDOW, BUDGET, 100);
    List<Charge> charges = new ArrayList<>();
    List<String> keys = List.of("ann", "bob", "carol");
    long now = r.nextInt(1000);
    for (int step = 0; step < 60; step++) {
      now += r.nextInt(4) == 0 ? r.nextInt((int) (3 * WINDOW)) : r.nextInt((int) BUCKET);
      String key = keys.get(r.nextInt(keys.size()));
      if (r.nextBoolean()) {
        long nanos = r.nextInt(200);
        share.charge(key, now, nanos);
        charges.add(new Charge(key, now, nanos));
      }
      for (String k : keys) {
        long used = naiveUsed(charges, k, now);
        assertThat(share.used(k, now)).isEqualTo(used);
        assertThat(share.over(k, now).isPresent()).isEqualTo(used >= BUDGET);
      }
    }
    // the wait told is the first moment the key is under again (no charges meanwhile)
    for (String k : keys) {
      OptionalLong wait = share.over(k, now);
      if (wait.isPresent()) {
        long w = wait.getAsLong();
        assertThat(w).isPositive().isLessThanOrEqualTo(WINDOW);
        assertThat(naiveUsed(charges, k, now + w)).isLessThan(BUDGET);
        assertThat(naiveUsed(charges, k, now + w - 1)).isGreaterThanOrEqualTo(BUDGET);
      }
    }
  }

  @Test
  void keysAreBoundedAndForgottenAfterAWindowUntouched() {
    CpuShare share = new CpuShare(WINDOW, BUDGET, 3);
    for (int i = 0; i < 10; i++) {
      share.charge("k" + i, i, 600);
    }
    assertThat(share.size()).isEqualTo(3);
    assertThat(share.over("k9", 10)).isPresent();
    assertThat(share.over("k0", 10)).isEmpty(); // dropped, least recently used
    assertThat(share.over("k9", 10 + WINDOW)).isEmpty();
    assertThat(share.size()).isZero(); // none touched for a window
  }
}
