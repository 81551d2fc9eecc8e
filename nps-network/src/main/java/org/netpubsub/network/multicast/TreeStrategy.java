package org.netpubsub.network.multicast;

/**
 * How a group's tree is built (SNAPS §IV-A): DIRECT is the shortest-path tree from the root;
 * RENDEZVOUS_POINT goes from the root to a shared rendezvous point, then along shortest paths from
 * it ({@link ShortestPathTrees}).
 */
public enum TreeStrategy {
  DIRECT,
  RENDEZVOUS_POINT
}
