package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Schema;

/** Event → dz: the paper's example, the bit schedule, strings, long domains. */
class SpatialIndexTest {
  static final Schema STOCKS =
      Schema.builder("stocks").intAttribute("P", 0, 99).intAttribute("V", 0, 99).build();

  static Event stock(long p, long v) {
    return Event.builder(STOCKS).set("P", p).set("V", v).build();
  }

  @Test
  void paperExampleEvent() {
    SpatialIndex index = new SpatialIndex(STOCKS, 6);
    Event e1 = stock(65, 55);
    assertThat(index.dz(e1)).isEqualTo(Dz.parse("110010"));
    assertThat(index.address(e1).addressString()).isEqualTo("ff0e:c800::");
    assertThat(index.address(e1)).hasToString("ff0e:c800::/22");
    assertThat(index.bitOrder()).containsExactly("P", "V", "P", "V", "P", "V");
    // e1 lies in sub1's subspace 110 of Figure 2.
    assertThat(Dz.parse("110").covers(index.dz(e1))).isTrue();
  }

  @Test
  void eachBitHalvesTheIntervalAtTheRealMidpoint() {
    SpatialIndex index = new SpatialIndex(STOCKS, 2);
    assertThat(index.dz(stock(49, 0))).isEqualTo(Dz.parse("00"));
    assertThat(index.dz(stock(50, 0))).isEqualTo(Dz.parse("10"));
    assertThat(index.dz(stock(0, 50))).isEqualTo(Dz.parse("01"));
    assertThat(index.dz(stock(99, 99))).isEqualTo(Dz.parse("11"));
  }

  @Test
  void resolvedDimensionsLeaveTheRotation() {
    Schema s = Schema.builder("s").intAttribute("flag", 0, 1).intAttribute("level", 0, 15).build();
    SpatialIndex index = new SpatialIndex(s, 5);
    assertThat(index.bitOrder()).containsExactly("flag", "level", "level", "level", "level");
    Event e = Event.builder(s).set("flag", 1).set("level", 0b0110).build();
    assertThat(index.dz(e)).isEqualTo(Dz.parse("10110"));
    assertThat(SpatialIndex.defaultLength(s)).isEqualTo(5);
  }

  @Test
  void bitsPastFullResolutionAreZero() {
    Schema s = Schema.builder("s").intAttribute("x", 0, 3).build();
    SpatialIndex index = new SpatialIndex(s, 5);
    assertThat(index.bitOrder()).containsExactly("x", "x", "", "", "");
    assertThat(index.dz(Event.builder(s).set("x", 3).build())).isEqualTo(Dz.parse("11000"));
  }

  @Test
  void defaultLengthResolvesEveryValueUpTo112Bits() {
    assertThat(SpatialIndex.defaultLength(STOCKS)).isEqualTo(14);
    Schema wide =
        Schema.builder("w")
            .intAttribute("a", Long.MIN_VALUE, Long.MAX_VALUE)
            .stringAttribute("s", 20)
            .build();
    assertThat(SpatialIndex.defaultLength(wide)).isEqualTo(112);
    Schema single =
        Schema.builder("one").stringAttribute("empty", 0).intAttribute("k", 7, 7).build();
    assertThat(SpatialIndex.defaultLength(single)).isEqualTo(1);
    assertThat(SpatialIndex.withDefaultLength(STOCKS).length()).isEqualTo(14);
  }

  @Test
  void rejectsBadLengthsAndForeignEvents() {
    assertThatThrownBy(() -> new SpatialIndex(STOCKS, 0)).hasMessageContaining("1..112");
    assertThatThrownBy(() -> new SpatialIndex(STOCKS, 113)).hasMessageContaining("1..112");
    Schema other = Schema.builder("o").intAttribute("x", 0, 9).build();
    SpatialIndex index = new SpatialIndex(STOCKS, 6);
    assertThatThrownBy(() -> index.dz(Event.builder(other).set("x", 1).build()))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void indexDimensionsFollowTheSchemaIndex() {
    Schema reordered = STOCKS.withIndex(List.of("V", "P"));
    SpatialIndex index = new SpatialIndex(reordered, 6);
    Event e1 = Event.builder(reordered).set("P", 65).set("V", 55).build();
    assertThat(index.dz(e1)).isEqualTo(Dz.parse("110001")); // V, P, V, P, V, P
    SpatialIndex onlyP = new SpatialIndex(STOCKS.withIndex(List.of("P")), 3);
    assertThat(onlyP.dz(stock(65, 55))).isEqualTo(Dz.parse("101"));
  }

  @Property(tries = 300)
  void shorterIndexesGivePrefixes(
      @ForAll @IntRange(min = 0, max = 99) int p,
      @ForAll @IntRange(min = 0, max = 99) int v,
      @ForAll @IntRange(min = 1, max = 14) int l) {
    Dz full = new SpatialIndex(STOCKS, 14).dz(stock(p, v));
    assertThat(new SpatialIndex(STOCKS, l).dz(stock(p, v))).isEqualTo(full.prefix(l));
  }

  @Property(tries = 300)
  void fullLengthIsInjectiveAndOrderPreservingPerDimension(
      @ForAll @IntRange(min = 0, max = 99) int a, @ForAll @IntRange(min = 0, max = 99) int b) {
    SpatialIndex onlyP = new SpatialIndex(STOCKS.withIndex(List.of("P")), 7);
    int cmp = onlyP.dz(stock(a, 0)).compareTo(onlyP.dz(stock(b, 0)));
    assertThat(Integer.signum(cmp)).isEqualTo(Integer.signum(Integer.compare(a, b)));
  }

  @Property(tries = 300)
  void stringsKeepByteOrderOnTheirFirstEightBytes(
      @ForAll @StringLength(max = 12) String a, @ForAll @StringLength(max = 12) String b) {
    Schema s = Schema.builder("s").stringAttribute("name", 200).build();
    SpatialIndex index = new SpatialIndex(s, 64);
    Dz x = index.dz(Event.builder(s).set("name", a).build());
    Dz y = index.dz(Event.builder(s).set("name", b).build());
    byte[] ka = key(a);
    byte[] kb = key(b);
    assertThat(Integer.signum(x.compareTo(y)))
        .isEqualTo(Integer.signum(java.util.Arrays.compareUnsigned(ka, kb)));
  }

  /** The first 8 UTF-8 bytes, zero-padded. */
  private static byte[] key(String s) {
    return java.util.Arrays.copyOf(s.getBytes(java.nio.charset.StandardCharsets.UTF_8), 8);
  }

  @Test
  void shortStringDimensionsUseTheirMaxLength() {
    Schema s = Schema.builder("s").stringAttribute("c", 1).build();
    SpatialIndex index = new SpatialIndex(s, 8);
    assertThat(index.dz(Event.builder(s).set("c", "A").build())).isEqualTo(Dz.parse("01000001"));
    assertThat(index.dz(Event.builder(s).set("c", "").build())).isEqualTo(Dz.parse("00000000"));
  }

  @Test
  void fullSixtyFourBitDomain() {
    Schema s = Schema.builder("s").intAttribute("x", Long.MIN_VALUE, Long.MAX_VALUE).build();
    SpatialIndex index = new SpatialIndex(s, 64);
    Dz min = index.dz(Event.builder(s).set("x", Long.MIN_VALUE).build());
    Dz max = index.dz(Event.builder(s).set("x", Long.MAX_VALUE).build());
    Dz zero = index.dz(Event.builder(s).set("x", 0).build());
    assertThat(min).isEqualTo(Dz.parse("0".repeat(64)));
    assertThat(max).isEqualTo(Dz.parse("1".repeat(64)));
    assertThat(zero).isEqualTo(Dz.parse("1" + "0".repeat(63)));
  }
}
