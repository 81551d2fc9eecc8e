package org.netpubsub.content.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class RandTest {
  @Test
  void sameSeedSameSequenceDifferentSeedDifferent() {
    Rand a = new Rand(42);
    Rand b = new Rand(42);
    Rand c = new Rand(43);
    long[] sa = new long[8];
    long[] sb = new long[8];
    long[] sc = new long[8];
    for (int i = 0; i < 8; i++) {
      sa[i] = a.nextLong();
      sb[i] = b.nextLong();
      sc[i] = c.nextLong();
    }
    assertThat(sa).isEqualTo(sb).isNotEqualTo(sc);
  }

  @Test
  void splitStreamsAreIndependentOfLaterUseOfTheParent() {
    Rand root1 = new Rand(7);
    Rand child1 = root1.split();
    Rand root2 = new Rand(7);
    Rand child2 = root2.split();
    root2.nextLong(); // using the parent must not disturb the child
    assertThat(child1.nextLong()).isEqualTo(child2.nextLong());
  }

  @Property(tries = 300)
  void betweenStaysInBounds(
      @ForAll @LongRange(min = -1000, max = 1000) long lo,
      @ForAll @LongRange(min = 0, max = 5000) long span,
      @ForAll long seed) {
    Rand r = new Rand(seed);
    for (int i = 0; i < 20; i++) {
      assertThat(r.between(lo, lo + span)).isBetween(lo, lo + span);
    }
  }

  @Test
  void belowIsUniformForANonPowerOfTwo() {
    Rand r = new Rand(1);
    int[] counts = new int[6];
    int n = 60_000;
    for (int i = 0; i < n; i++) {
      counts[r.belowInt(6)]++;
    }
    for (int c : counts) {
      assertThat(c / (double) n).isCloseTo(1 / 6.0, within(0.01));
    }
  }

  @Test
  void extremesOfTheLongRange() {
    Rand r = new Rand(3);
    assertThat(r.between(Long.MIN_VALUE, Long.MAX_VALUE)).isNotNull();
    assertThat(r.between(5, 5)).isEqualTo(5);
    assertThat(r.below(Long.MAX_VALUE)).isBetween(0L, Long.MAX_VALUE - 1);
    assertThatThrownBy(() -> r.below(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> r.between(2, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void exponentialAndPoissonHaveTheirMeans() {
    Rand r = new Rand(11);
    int n = 40_000;
    double sumExp = 0;
    double sumPoisson = 0;
    for (int i = 0; i < n; i++) {
      sumExp += r.exponential(2.5);
      sumPoisson += r.poisson(3.0);
    }
    assertThat(sumExp / n).isCloseTo(2.5, within(0.05));
    assertThat(sumPoisson / n).isCloseTo(3.0, within(0.05));
    assertThat(r.poisson(0)).isZero();
  }

  @Test
  void nextDoubleIsInTheUnitInterval() {
    Rand r = new Rand(5);
    double sum = 0;
    for (int i = 0; i < 10_000; i++) {
      double d = r.nextDouble();
      assertThat(d).isGreaterThanOrEqualTo(0).isLessThan(1);
      sum += d;
    }
    assertThat(sum / 10_000).isCloseTo(0.5, within(0.01));
  }
}
