package org.netpubsub.controller.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Issue 27: rotating rate-limit keys must not grow the limiter's memory. */
class HostRateLimiterTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void theBurstIsGrantedThenRefusedWithTheWait() {
    HostRateLimiter l = new HostRateLimiter(1, 3);
    for (int i = 0; i < 3; i++) {
      assertThat(l.acquire("a@::1", 0)).isEmpty();
    }
    assertThat(l.acquire("a@::1", 0)).hasValue(1);
    assertThat(l.acquire("b@::1", 0)).isEmpty(); // another sender has its own bucket
    assertThat(l.acquire("a@::1", SECOND)).isEmpty();
  }

  @Test
  void bucketsAreBoundedAndRefilledOnesExpire() {
    HostRateLimiter l = new HostRateLimiter(1, 2, 100);
    for (int i = 0; i < 10_000; i++) {
      l.acquire("k" + i, i);
    }
    assertThat(l.size()).isEqualTo(100);
    l.acquire("late", 10_000 + 10 * SECOND); // every other bucket has refilled by now
    assertThat(l.size()).isEqualTo(1);
  }
}
