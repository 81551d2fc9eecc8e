package org.netpubsub.network.openflow;

import java.util.List;

/** A group as a switch holds it and reports it in a group-desc reply. */
public record GroupEntry(long groupId, GroupType type, List<Bucket> buckets) {
  /** OFPG_MAX: group ids are 0..MAX. */
  public static final long MAX = 0xffffff00L;

  /** OFPG_ALL: every group (delete). */
  public static final long ALL = 0xfffffffcL;

  public GroupEntry {
    if (groupId < 0 || groupId > MAX) {
      throw new IllegalArgumentException("group id must be in [0, 0xffffff00]: " + groupId);
    }
    if (type == null) {
      throw new IllegalArgumentException("group type is required");
    }
    buckets = List.copyOf(buckets);
  }

  public static GroupEntry of(long groupId, GroupType type, Bucket... buckets) {
    return new GroupEntry(groupId, type, List.of(buckets));
  }

  /** The group in ovs-ofctl syntax, as {@code ovs-ofctl dump-groups} prints it. */
  @Override
  public String toString() {
    return OvsFlowSyntax.group(this);
  }
}
