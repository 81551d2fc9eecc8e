package org.netpubsub.controller.southbound;

import java.util.List;

/**
 * The messages that bring a switch's tables to a desired state, in the order to send them, and how
 * many of each kind there are.
 */
public record ReconcilePlan(
    List<SwitchMod> mods,
    int groupsAdded,
    int groupsModified,
    int flowsAdded,
    int flowsModified,
    int flowsDeleted,
    int groupsDeleted) {
  public ReconcilePlan {
    mods = List.copyOf(mods);
  }

  public boolean isEmpty() {
    return mods.isEmpty();
  }
}
