package org.netpubsub.compiler.target.software;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.filter.Filter;
import org.netpubsub.content.filter.Filter.AggregateFunction;
import org.netpubsub.content.filter.Filter.Comparison;

/** Window alignment, exact sums past 2^63, and comparisons. */
class TumblingWindowTest {
  static Filter.Aggregate atom(AggregateFunction f, Comparison op, String threshold) {
    return new Filter.Aggregate(f, null, op, new BigDecimal(threshold), Duration.ofNanos(10));
  }

  @Test
  void windowsAreAlignedOnMultiplesOfTheirLength() {
    TumblingWindow w = new TumblingWindow(10);
    w.add(-1, 0); // [−10, 0)
    w.add(0, 0); // [0, 10)
    assertThat(w.count()).isEqualTo(1);
    w.add(9, 0);
    assertThat(w.count()).isEqualTo(2);
    w.add(10, 0);
    assertThat(w.count()).isEqualTo(1);
  }

  @Test
  void sumsAreExactPastTwoToTheSixtyThree() {
    TumblingWindow w = new TumblingWindow(10);
    w.add(0, Long.MAX_VALUE);
    w.add(1, Long.MAX_VALUE);
    BigInteger twice = BigInteger.valueOf(Long.MAX_VALUE).shiftLeft(1);
    assertThat(w.sum()).isEqualTo(twice);
    w.add(2, -5);
    assertThat(w.sum()).isEqualTo(twice.subtract(BigInteger.valueOf(5)));
    assertThat(w.holds(atom(AggregateFunction.SUM, Comparison.GT, "9223372036854775807"))).isTrue();
    assertThat(w.holds(atom(AggregateFunction.COUNT, Comparison.EQ, "3"))).isTrue();
    assertThat(w.holds(atom(AggregateFunction.COUNT, Comparison.NE, "3"))).isFalse();
  }

  @Test
  void anEmptyWindowHasNoAverage() {
    TumblingWindow w = new TumblingWindow(10);
    assertThat(w.holds(atom(AggregateFunction.AVG, Comparison.LT, "1"))).isFalse();
    assertThat(w.holds(atom(AggregateFunction.AVG, Comparison.GE, "1"))).isFalse();
    assertThatThrownBy(() -> new TumblingWindow(0)).hasMessageContaining("must be positive");
  }
}
