package org.netpubsub.edge.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** The WAN emulation's link profiles: parsing, delays within ± jitter, the loss rate. */
class LinkProfileTest {
  @Example
  void parses() {
    assertThat(LinkProfile.parse("delay=30ms,jitter=5ms,loss=1%"))
        .isEqualTo(new LinkProfile(Duration.ofMillis(30), Duration.ofMillis(5), 0.01));
    assertThat(LinkProfile.parse("delay=0.25s"))
        .isEqualTo(new LinkProfile(Duration.ofMillis(250), Duration.ZERO, 0));
    assertThatThrownBy(() -> LinkProfile.parse("latency=3ms")).hasMessageContaining("unknown key");
    assertThatThrownBy(() -> LinkProfile.parse("delay=3")).hasMessageContaining("not a duration");
    assertThatThrownBy(() -> LinkProfile.parse("loss=150%")).hasMessageContaining("loss in [0, 1]");
  }

  @Property(tries = 200)
  void delaysStayWithinTheJitter(
      @ForAll @IntRange(max = 500) int delayMs,
      @ForAll @IntRange(max = 100) int jitterMs,
      @ForAll long seed) {
    LinkProfile p = new LinkProfile(Duration.ofMillis(delayMs), Duration.ofMillis(jitterMs), 0);
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < 100; i++) {
      long d = p.sample(r).orElseThrow();
      assertThat(d)
          .isBetween(
              Math.max(0, (delayMs - jitterMs) * 1_000_000L), (delayMs + jitterMs) * 1_000_000L);
    }
  }

  @Example
  void lossRateIsTheProbability() {
    LinkProfile p = LinkProfile.parse("loss=10%");
    SplittableRandom r = new SplittableRandom(7);
    int lost = 0;
    for (int i = 0; i < 100_000; i++) {
      OptionalLong d = p.sample(r);
      if (d.isEmpty()) {
        lost++;
      }
    }
    assertThat(lost).isBetween(9_500, 10_500);
    assertThat(LinkProfile.parse("loss=1").sample(r)).isEmpty();
  }
}
