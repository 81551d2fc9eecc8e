package org.netpubsub.network.multicast;

/**
 * A binding SID (BSID): the node a replication segment lives at and its index there. Indexes count
 * up from 1 per node and are never handed out twice by one registry, so a removed segment's id
 * cannot be mistaken for a newer one.
 */
public record SegmentId(int node, int index) {
  @Override
  public String toString() {
    return "B" + node + "::" + index;
  }
}
