package org.netpubsub.content.index;

import org.netpubsub.content.schema.Attribute;

/**
 * A candidate index dimension and how well it discriminates (see {@link DimensionSelector}).
 *
 * @param score the variance over events of the number of subscriptions matched along this dimension
 *     alone
 */
public record DimensionScore(Attribute attribute, double score) {}
