package org.netpubsub.content.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.netpubsub.content.index.TestConjunction.dnf;
import static org.netpubsub.content.index.TestConjunction.range;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.filter.Dnf;
import org.netpubsub.content.schema.Schema;

/** Sampled over-cover estimates. */
class CoverQualityTest {
  static final Schema POW2 =
      Schema.builder("pow2").intAttribute("x", 0, 1023).intAttribute("y", 0, 1023).build();

  @Test
  void exactCoverOfAnAlignedBoxHasNoOverCover() {
    SpatialIndex index = SpatialIndex.withDefaultLength(POW2);
    Dnf box = dnf(TestConjunction.of(range(POW2, "x", 0, 511), range(POW2, "y", 256, 511)));
    DzSet cover = index.cover(box);
    // x: first bit 0; y: bits 01; interleaved x y x y → 0?01.
    assertThat(cover).isEqualTo(DzSet.of(Dz.parse("0001"), Dz.parse("0011")));
    CoverEstimate e = CoverQuality.estimate(index, box, cover, 4000, 7);
    assertThat(e.coveredFraction()).isEqualTo(0.125);
    assertThat(e.overCoverFraction()).isZero();
    assertThat(e.falseNegatives()).isZero();
    assertThat(e.samples()).isEqualTo(4000);
    assertThat(e.matchFraction())
        .isEqualTo(e.sampledCoveredFraction())
        .isCloseTo(0.125, within(0.03));
  }

  @Test
  void aTightBudgetOverCovers() {
    SpatialIndex index = SpatialIndex.withDefaultLength(POW2);
    Dnf box = dnf(TestConjunction.of(range(POW2, "x", 100, 300), range(POW2, "y", 600, 700)));
    DzSet one = index.cover(box, 1);
    CoverEstimate coarse = CoverQuality.estimate(index, box, one, 4000, 7);
    CoverEstimate fine =
        CoverQuality.estimate(index, box, index.cover(box, Integer.MAX_VALUE), 4000, 7);
    assertThat(coarse.overCoverFraction()).isGreaterThan(0.01);
    assertThat(fine.overCoverFraction()).isZero();
    assertThat(coarse.coveredFraction()).isGreaterThan(fine.coveredFraction());
    // Over-cover is covered minus matched (no false negatives).
    assertThat(coarse.overCoverFraction())
        .isCloseTo(coarse.sampledCoveredFraction() - coarse.matchFraction(), within(1e-12));
  }

  @Test
  void sameSeedSameEstimate() {
    Schema s = CoverTest.MIXED;
    SpatialIndex index = new SpatialIndex(s, 10);
    Dnf d = dnf(TestConjunction.of(TestConjunction.prefixes(s, "s", "a"), range(s, "x", 0, 2)));
    DzSet cover = index.cover(d, 4);
    assertThat(CoverQuality.estimate(index, d, cover, 500, 3))
        .isEqualTo(CoverQuality.estimate(index, d, cover, 500, 3));
    assertThat(CoverQuality.estimate(index, d, cover, 0, 3).samples()).isZero();
  }

  @Test
  void stringConstantsGetWeight() {
    // Uniform random strings would almost never equal "ab"; the sampler draws the constant itself.
    Schema s = CoverTest.MIXED;
    SpatialIndex index = SpatialIndex.withDefaultLength(s);
    Dnf eq = dnf(TestConjunction.of(TestConjunction.equalTo(s, "s", "ab")));
    CoverEstimate e = CoverQuality.estimate(index, eq, index.cover(eq), 2000, 11);
    assertThat(e.matchFraction()).isGreaterThan(0.05);
    assertThat(e.falseNegatives()).isZero();
  }

  @Property(tries = 100)
  void neverAFalseNegative(@ForAll long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    Schema schema = CoverTest.VARIANTS.get(r.nextInt(CoverTest.VARIANTS.size()));
    Dnf d = RandomFilters.dnf(schema, r, 3, 3);
    SpatialIndex index = new SpatialIndex(schema, 1 + r.nextInt(20));
    CoverEstimate e = CoverQuality.estimate(index, d, index.cover(d, 1 + r.nextInt(30)), 200, seed);
    assertThat(e.falseNegatives()).isZero();
    assertThat(e.overCoverFraction()).isBetween(0.0, e.sampledCoveredFraction());
  }
}
