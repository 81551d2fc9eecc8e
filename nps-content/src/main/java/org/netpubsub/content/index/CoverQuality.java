package org.netpubsub.content.index;

import org.netpubsub.content.event.Event;
import org.netpubsub.content.filter.Dnf;

/**
 * Estimates how much a cover over-approximates its filter, by drawing seeded random events (see
 * {@link EventSampler} for the distribution) and comparing "the cover contains the event's dz" with
 * "the filter matches the event". Aggregates count as satisfied.
 */
public final class CoverQuality {
  private CoverQuality() {}

  public static CoverEstimate estimate(
      SpatialIndex index, Dnf dnf, DzSet cover, int samples, long seed) {
    if (samples < 0) {
      throw new IllegalArgumentException("samples must be ≥ 0, got " + samples);
    }
    EventSampler sampler = new EventSampler(index.schema(), dnf, seed);
    int covered = 0;
    int matched = 0;
    int overCovered = 0;
    int falseNegatives = 0;
    for (int i = 0; i < samples; i++) {
      Event e = sampler.next();
      boolean c = cover.covers(index.dz(e));
      boolean m = ConjunctionMatch.matches(dnf, e);
      covered += c ? 1 : 0;
      matched += m ? 1 : 0;
      overCovered += c && !m ? 1 : 0;
      falseNegatives += m && !c ? 1 : 0;
    }
    return new CoverEstimate(
        cover.volume(),
        samples,
        fraction(covered, samples),
        fraction(matched, samples),
        fraction(overCovered, samples),
        falseNegatives);
  }

  private static double fraction(int count, int samples) {
    return samples == 0 ? 0 : (double) count / samples;
  }
}
