package org.netpubsub.network.layout;

import java.util.List;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.GroupMod;

/**
 * What one owner may write on a switch: flows whose cookie has {@code cookie}'s bits under {@code
 * cookieMask}, in one of its {@link Band}s, and groups with ids in {@code [firstGroup, lastGroup]}.
 * Two owners may share a cookie (discovery and base forwarding do) as long as their bands do not
 * meet: a flow belongs to the one space holding its table, priority and cookie.
 */
public record FlowSpace(
    Owner owner, long cookie, long cookieMask, List<Band> bands, long firstGroup, long lastGroup) {

  /** Tables {@code [firstTable, lastTable]} at priorities {@code [minPriority, maxPriority]}. */
  public record Band(int firstTable, int lastTable, int minPriority, int maxPriority) {
    public Band {
      if (firstTable > lastTable || minPriority > maxPriority) {
        throw new IllegalArgumentException("empty band: " + firstTable + ".." + lastTable);
      }
    }

    public boolean contains(int table, int priority) {
      return table >= firstTable
          && table <= lastTable
          && priority >= minPriority
          && priority <= maxPriority;
    }

    boolean overlaps(Band o) {
      return firstTable <= o.lastTable
          && o.firstTable <= lastTable
          && minPriority <= o.maxPriority
          && o.minPriority <= maxPriority;
    }
  }

  public FlowSpace {
    bands = List.copyOf(bands);
    if ((cookie & ~cookieMask) != 0) {
      throw new IllegalArgumentException("cookie bits outside the mask: " + owner);
    }
  }

  public boolean containsCookie(long c) {
    return (c & cookieMask) == cookie;
  }

  public boolean contains(int table, int priority) {
    return bands.stream().anyMatch(b -> b.contains(table, priority));
  }

  public boolean contains(FlowEntry f) {
    return containsCookie(f.cookie()) && contains(f.tableId(), f.priority());
  }

  /**
   * Whether the mod stays in this space: an add or modify writes an entry with its cookie; a delete
   * selects by table and priority (strict) and by cookie only under its cookie mask.
   */
  public boolean contains(FlowMod m) {
    if (m.command().isDelete()) {
      boolean cookieOk =
          m.cookieMask() == 0 || ((m.cookie() ^ cookie) & m.cookieMask() & cookieMask) == 0;
      return cookieOk && m.tableId() != FlowMod.ALL_TABLES && contains(m.tableId(), m.priority());
    }
    return containsCookie(m.cookie()) && contains(m.tableId(), m.priority());
  }

  public boolean containsGroup(long id) {
    return id >= firstGroup && id <= lastGroup;
  }

  public boolean contains(GroupMod m) {
    return containsGroup(m.groupId());
  }

  /** Whether some flow or group could belong to both spaces. */
  public boolean overlaps(FlowSpace o) {
    boolean cookies = ((cookie ^ o.cookie) & cookieMask & o.cookieMask) == 0;
    boolean flows = cookies && bands.stream().anyMatch(b -> o.bands.stream().anyMatch(b::overlaps));
    boolean groups =
        firstGroup <= lastGroup
            && o.firstGroup <= o.lastGroup
            && firstGroup <= o.lastGroup
            && o.firstGroup <= lastGroup;
    return flows || groups;
  }
}
