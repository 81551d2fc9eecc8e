package org.netpubsub.network.multicast;

/** Where a replication segment (or a tree's source) sends one copy of a packet. */
public sealed interface Branch {
  /** On to another replication segment, reached by unicast routing to its node. */
  record ToSegment(SegmentId next) implements Branch {}

  /** Local delivery at a member node (the paper's local SID). */
  record ToMember(int member) implements Branch {}
}
