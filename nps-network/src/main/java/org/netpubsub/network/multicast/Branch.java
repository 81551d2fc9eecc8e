package org.netpubsub.network.multicast;

public sealed interface Branch {
  record ToSegment(SegmentId next) implements Branch {}

  record ToMember(int member) implements Branch {}
}
