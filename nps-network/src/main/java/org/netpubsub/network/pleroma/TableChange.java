package org.netpubsub.network.pleroma;

import java.util.SortedSet;
import org.netpubsub.content.index.Dz;

/**
 * One content flow of one switch before and after a change; an empty set means no flow. Added:
 * before is empty; removed: after is empty; otherwise its egresses changed.
 */
public record TableChange(Dz dz, SortedSet<EventEgress> before, SortedSet<EventEgress> after) {
  public TableChange {
    before = EgressSet.copyOf(before); // immutable; the table's own sets are not copied
    after = EgressSet.copyOf(after);
    if (before.equals(after)) {
      throw new IllegalArgumentException("not a change: " + dz + " " + before);
    }
  }

  public boolean isAddition() {
    return before.isEmpty();
  }

  public boolean isRemoval() {
    return after.isEmpty();
  }

  @Override
  public String toString() {
    return dz + ": " + before + " → " + after;
  }
}
