package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Cell codes: the long fast paths against exact BigInteger arithmetic. */
class CodesTest {
  private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

  record Case(long sizeMinus1, long v, int k) {}

  static BigInteger unsigned(long x) {
    return x >= 0 ? BigInteger.valueOf(x) : BigInteger.valueOf(x).add(TWO_64);
  }

  static long exact(long v, long sizeMinus1, int k) {
    BigInteger size = unsigned(sizeMinus1).add(BigInteger.ONE);
    return unsigned(v).shiftLeft(k).divide(size).longValue();
  }

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<Long> sizes =
        Arbitraries.oneOf(
            Arbitraries.longs().between(0, 5000), // small domains: the fast path
            Arbitraries.longs(), // any 64-bit span, often above 2^63: long division
            Arbitraries.of(-1L, Long.MAX_VALUE, Long.MIN_VALUE, (1L << 40) - 1, 1L << 40),
            Arbitraries.integers().between(0, 63).map(s -> (1L << s) - 1)); // powers of two
    return sizes.flatMap(
        m ->
            Combinators.combine(
                    Arbitraries.oneOf(
                        Arbitraries.longs(), Arbitraries.of(0L, m, m - 1, m >>> 1, -1L)),
                    Arbitraries.integers().between(0, Math.max(1, Codes.resolution(m))))
                .as(
                    (raw, k) -> {
                      // Bring v into [0, size): unsigned remainder (any v when size = 2^64).
                      long v = m == -1L ? raw : Long.remainderUnsigned(raw, m + 1);
                      return new Case(m, v, k);
                    }));
  }

  @Property(tries = 1000)
  void codeIsExact(@ForAll("cases") Case c) {
    assertThat(Codes.code(c.v(), c.sizeMinus1(), c.k()))
        .as("floor(%s · 2^%d / (%s + 1))", c.v(), c.k(), Long.toUnsignedString(c.sizeMinus1()))
        .isEqualTo(exact(c.v(), c.sizeMinus1(), c.k()));
  }

  @Property(tries = 1000)
  void longDivisionIsExact(@ForAll("cases") Case c) {
    if (c.sizeMinus1() == -1L) {
      return; // 2^64 values: handled by the power-of-two path, not representable as a divisor
    }
    assertThat(Codes.longDivision(c.v(), c.sizeMinus1() + 1, c.k()))
        .isEqualTo(exact(c.v(), c.sizeMinus1(), c.k()));
  }

  @Property(tries = 500)
  void codesOfOneValueArePrefixes(@ForAll("cases") Case c) {
    // The (k+1)-bit code extends the k-bit one: bits of one dimension are a binary expansion.
    if (c.k() >= Codes.resolution(c.sizeMinus1())) {
      return;
    }
    long shorter = Codes.code(c.v(), c.sizeMinus1(), c.k());
    long longer = Codes.code(c.v(), c.sizeMinus1(), c.k() + 1);
    assertThat(longer >>> 1).isEqualTo(shorter);
  }

  @Test
  void paperExampleCodes() {
    // Domain [0, 100): P = 65 → 101, V = 55 → 100 with three bits each.
    assertThat(Codes.code(65, 99, 3)).isEqualTo(0b101);
    assertThat(Codes.code(55, 99, 3)).isEqualTo(0b100);
    assertThat(Codes.code(50, 99, 1)).isEqualTo(1); // the midpoint goes up
    assertThat(Codes.code(49, 99, 1)).isEqualTo(0);
  }

  @Test
  void resolutionIsCeilLog2OfSize() {
    assertThat(Codes.resolution(0)).isZero(); // one value
    assertThat(Codes.resolution(1)).isEqualTo(1);
    assertThat(Codes.resolution(99)).isEqualTo(7);
    assertThat(Codes.resolution(127)).isEqualTo(7);
    assertThat(Codes.resolution(128)).isEqualTo(8);
    assertThat(Codes.resolution(-1L)).isEqualTo(64);
  }
}
