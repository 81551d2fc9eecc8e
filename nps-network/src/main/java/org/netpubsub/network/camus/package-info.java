/**
 * Camus's routing on subscriptions in hierarchical (fat-tree) fabrics (CoNEXT '20 §4): a {@link
 * org.netpubsub.network.camus.Hierarchy} read from a topology (edge, aggregation, core; up and down
 * ports), the filter sets F_p^s of Algorithm 1 under the MR or TR policy ({@link
 * org.netpubsub.network.camus.FilterSets}, with TR corrected for multi-rooted trees), every
 * switch's local rules compiled — exact at the edge, discretized by α above — and recompiled
 * incrementally when a host's subscriptions change ({@link
 * org.netpubsub.network.camus.CamusRouting}); {@link org.netpubsub.network.camus.Dissemination}
 * runs the compiled tables hop by hop. Pure: no I/O, no threads, no clock.
 */
package org.netpubsub.network.camus;
