package org.netpubsub.network.openflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;

/** Match.covers and Match.overlaps against brute force over {@link SmallUniverse}. */
class MatchAlgebraProperties {
  private static final List<SmallUniverse.Point> POINTS = SmallUniverse.points();

  @Provide
  Arbitrary<Match> matches() {
    return SmallUniverse.matches();
  }

  private static boolean hits(Match m, SmallUniverse.Point p) {
    return m.matches(p.headers(), p.inPort(), p.metadata());
  }

  @Property(tries = 1000)
  void coversIsSetInclusion(@ForAll("matches") Match a, @ForAll("matches") Match b) {
    boolean included = POINTS.stream().allMatch(p -> !hits(b, p) || hits(a, p));
    assertThat(a.covers(b)).as("%s covers %s", a, b).isEqualTo(included);
    // Both outcomes must be common, or the property proves little.
    Statistics.label("covers")
        .collect(included)
        .coverage(c -> c.check(true).percentage(pc -> pc > 5));
  }

  @Property(tries = 1000)
  void overlapsIsNonEmptyIntersection(@ForAll("matches") Match a, @ForAll("matches") Match b) {
    boolean shared = POINTS.stream().anyMatch(p -> hits(a, p) && hits(b, p));
    assertThat(a.overlaps(b)).as("%s overlaps %s", a, b).isEqualTo(shared);
    Statistics.label("overlaps")
        .collect(shared)
        .coverage(
            c -> {
              c.check(true).percentage(pc -> pc > 10);
              c.check(false).percentage(pc -> pc > 10);
            });
  }

  @Property(tries = 300)
  void everyValidMatchMatchesSomething(@ForAll("matches") Match m) {
    assertThat(POINTS).anyMatch(p -> hits(m, p));
  }

  @Property(tries = 300)
  void coversIsReflexiveAndAnyCoversAll(@ForAll("matches") Match m) {
    assertThat(m.covers(m)).isTrue();
    assertThat(Match.ANY.covers(m)).isTrue();
    assertThat(m.overlaps(m)).isTrue();
  }
}
