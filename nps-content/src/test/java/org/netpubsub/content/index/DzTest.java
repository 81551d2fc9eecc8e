package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** Dz against its naive twin, a String of 0 and 1. */
class DzTest {

  @Provide
  Arbitrary<String> bits() {
    // Short strings share prefixes often; long ones reach into the second word.
    return Arbitraries.oneOf(
        Arbitraries.strings().withChars('0', '1').ofMinLength(0).ofMaxLength(8),
        Arbitraries.strings().withChars('0', '1').ofMinLength(56).ofMaxLength(Dz.MAX_LENGTH));
  }

  @Test
  void paperDifferenceIsTheMinimalSet() {
    // The paper lists 001, 010, 011; 010 and 011 are the halves of 01.
    assertThat(Dz.parse("0").difference(Dz.parse("000")))
        .containsExactly(Dz.parse("001"), Dz.parse("01"));
    assertThat(Dz.parse("000").difference(Dz.parse("0"))).isEmpty();
    assertThat(Dz.parse("1").difference(Dz.parse("000"))).containsExactly(Dz.parse("1"));
  }

  @Test
  void coversIsThePaperPrecedesRelation() {
    assertThat(Dz.parse("101").covers(Dz.parse("101101"))).isTrue();
    assertThat(Dz.parse("101101").covers(Dz.parse("101"))).isFalse();
    assertThat(Dz.parse("100").covers(Dz.parse("1001"))).isTrue();
    assertThat(Dz.EMPTY.covers(Dz.parse("0"))).isTrue();
    assertThat(Dz.parse("1").overlaps(Dz.parse("01"))).isFalse();
    assertThat(Dz.parse("1").intersection(Dz.parse("100"))).contains(Dz.parse("100"));
    assertThat(Dz.parse("1").intersection(Dz.parse("0"))).isEmpty();
  }

  @Test
  void emptyDzPrintsAsEpsilonAndParsesBack() {
    assertThat(Dz.EMPTY.toString()).isEqualTo("ε");
    assertThat(Dz.EMPTY.bits()).isEmpty();
    assertThat(Dz.parse("ε")).isEqualTo(Dz.EMPTY);
    assertThat(Dz.parse("")).isEqualTo(Dz.EMPTY);
  }

  @Test
  void rejectsBadInput() {
    assertThatThrownBy(() -> Dz.parse("012")).hasMessageContaining("'2'");
    assertThatThrownBy(() -> Dz.parse("0".repeat(113))).hasMessageContaining("112");
    assertThatThrownBy(() -> Dz.parse("0".repeat(112)).append(1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Dz.parse("01").bit(2)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> Dz.parse("01").prefix(3)).isInstanceOf(IllegalArgumentException.class);
  }

  @Property(tries = 500)
  void parseAndBitsRoundTrip(@ForAll("bits") String s) {
    Dz d = Dz.parse(s);
    assertThat(d.bits()).isEqualTo(s);
    assertThat(d.length()).isEqualTo(s.length());
    for (int i = 0; i < s.length(); i++) {
      assertThat(d.bit(i)).isEqualTo(s.charAt(i) - '0');
    }
  }

  @Property(tries = 500)
  void relationsAgreeWithStrings(@ForAll("bits") String a, @ForAll("bits") String b) {
    Dz x = Dz.parse(a);
    Dz y = Dz.parse(b);
    assertThat(x.covers(y)).isEqualTo(b.startsWith(a));
    assertThat(x.overlaps(y)).isEqualTo(a.startsWith(b) || b.startsWith(a));
    assertThat(Integer.signum(x.compareTo(y))).isEqualTo(Integer.signum(a.compareTo(b)));
    assertThat(x.equals(y)).isEqualTo(a.equals(b));
    if (a.equals(b)) {
      assertThat(x.hashCode()).isEqualTo(y.hashCode());
    }
    String longer = a.length() >= b.length() ? a : b;
    assertThat(x.intersection(y).map(Dz::bits))
        .isEqualTo(x.overlaps(y) ? java.util.Optional.of(longer) : java.util.Optional.empty());
  }

  @Property(tries = 500)
  void appendAndPrefixAgreeWithStrings(@ForAll("bits") String s, @ForAll int seed) {
    Dz d = Dz.parse(s);
    int n = Math.floorMod(seed, s.length() + 1);
    assertThat(d.prefix(n).bits()).isEqualTo(s.substring(0, n));
    if (s.length() < Dz.MAX_LENGTH) {
      assertThat(d.append(1).bits()).isEqualTo(s + "1");
      assertThat(d.append(0).bits()).isEqualTo(s + "0");
    }
  }

  @Property(tries = 500)
  void differencePartitionsTheRest(@ForAll("bits") String a, @ForAll("bits") String b) {
    // A difference with a prefix of a shares a's beginning, which makes the containing case likely.
    Dz x = Dz.parse(a);
    Dz y = Dz.parse(a + b.substring(0, Math.min(b.length(), Dz.MAX_LENGTH - a.length())));
    List<Dz> rest = x.difference(y);
    assertThat(rest).isSorted().doesNotContain(y);
    for (Dz r : rest) {
      assertThat(x.covers(r)).isTrue();
      assertThat(r.overlaps(y)).isFalse();
    }
    for (int i = 0; i < rest.size(); i++) {
      for (int j = i + 1; j < rest.size(); j++) {
        assertThat(rest.get(i).overlaps(rest.get(j))).isFalse();
      }
    }
    // Volumes add up: |x| = |x − y| + |y| (summed deepest first, so every partial sum is exact).
    double v = Math.scalb(1.0, -y.length());
    List<Dz> deepestFirst = new java.util.ArrayList<>(rest);
    deepestFirst.sort(java.util.Comparator.comparingInt(Dz::length).reversed());
    for (Dz r : deepestFirst) {
      v += Math.scalb(1.0, -r.length());
    }
    assertThat(v).isEqualTo(Math.scalb(1.0, -x.length()));
    assertThat(rest).hasSize(y.length() - x.length());
  }
}
