/**
 * SNAPS multicast trees (Chang et al.; {@code ../shared/papers/snaps.txt} §II-E, §IV-A) as pure
 * code: a unit-cost {@link org.netpubsub.network.multicast.Graph}, shortest-path trees built
 * directly from the root or through a rendezvous point ({@link
 * org.netpubsub.network.multicast.ShortestPathTrees}), and the replication segments (SRv6 BSIDs)
 * that carry them, shared across trees with equal descendant-leaf sets by Algorithm 1 and reference
 * counted ({@link org.netpubsub.network.multicast.SegmentRegistry}). A root among a tree's members
 * is dropped: the publisher's edge serves its local subscribers itself. No I/O, no threads, no
 * clock; the controller installs what the registry creates and removes what it releases. See
 * docs/multicast.md.
 */
package org.netpubsub.network.multicast;
