package org.netpubsub.content.index;

/**
 * How tightly a cover fits its filter (see {@link CoverQuality}).
 *
 * @param coveredFraction the exact fraction of the index space the cover spans ({@link
 *     DzSet#volume()}); equal to the fraction of events when every domain size is a power of two
 * @param samples how many random events were drawn
 * @param sampledCoveredFraction the fraction of sampled events whose dz the cover contains
 * @param matchFraction the fraction of sampled events the filter matches
 * @param overCoverFraction the fraction of sampled events covered but not matched: the false
 *     positives a switch would forward
 * @param falseNegatives sampled events matched but not covered; always 0 unless the index is wrong
 */
public record CoverEstimate(
    double coveredFraction,
    int samples,
    double sampledCoveredFraction,
    double matchFraction,
    double overCoverFraction,
    int falseNegatives) {}
