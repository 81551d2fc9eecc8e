package org.netpubsub.network.openflow;

import java.util.List;

/**
 * An OpenFlow 1.3 group-mod message. Ids are not range-checked here: a switch answers a bad one
 * with an error, and the simulated switch must be able to say so.
 */
public record GroupMod(
    GroupModCommand command, long groupId, GroupType type, List<Bucket> buckets) {
  public GroupMod {
    if (command == null || type == null) {
      throw new IllegalArgumentException("command and type are required");
    }
    if (groupId < 0 || groupId > OfPort.ANY) {
      throw new IllegalArgumentException("group id out of range: " + groupId);
    }
    buckets = List.copyOf(buckets);
  }

  public static GroupMod add(GroupEntry g) {
    return new GroupMod(GroupModCommand.ADD, g.groupId(), g.type(), g.buckets());
  }

  public static GroupMod modify(GroupEntry g) {
    return new GroupMod(GroupModCommand.MODIFY, g.groupId(), g.type(), g.buckets());
  }

  /** Deletes one group ({@link GroupEntry#ALL}: every group) and the flows that use it. */
  public static GroupMod delete(long groupId) {
    return new GroupMod(GroupModCommand.DELETE, groupId, GroupType.ALL, List.of());
  }

  /** The entry an ADD or MODIFY installs. */
  public GroupEntry toEntry() {
    return new GroupEntry(groupId, type, buckets);
  }

  @Override
  public String toString() {
    return command.name().toLowerCase(java.util.Locale.ROOT) + " " + OvsFlowSyntax.groupMod(this);
  }
}
