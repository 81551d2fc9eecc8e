package org.netpubsub.controller.southbound;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;

/**
 * The flows and groups the controller wants one switch to hold, exactly: reconciliation adds what
 * is missing, fixes what differs and deletes everything else. Consistent by construction: one flow
 * per (table, priority, match), one group per id, and every group a flow or bucket names is in it.
 */
public record DesiredState(List<FlowEntry> flows, List<GroupEntry> groups) {
  public static final DesiredState EMPTY = new DesiredState(List.of(), List.of());

  public DesiredState {
    flows = List.copyOf(flows);
    groups = List.copyOf(groups);
    Set<Reconciler.FlowKey> keys = new HashSet<>();
    for (FlowEntry f : flows) {
      if (!keys.add(Reconciler.FlowKey.of(f))) {
        throw new IllegalArgumentException(
            "two desired flows with table, priority and match of: " + f);
      }
    }
    Set<Long> ids = new HashSet<>();
    for (GroupEntry g : groups) {
      if (!ids.add(g.groupId())) {
        throw new IllegalArgumentException("two desired groups with id " + g.groupId());
      }
    }
    for (FlowEntry f : flows) {
      checkGroups(f.allActions(), ids, "flow " + f);
    }
    for (GroupEntry g : groups) {
      for (Bucket b : g.buckets()) {
        checkGroups(b.actions(), ids, "group " + g.groupId());
      }
    }
  }

  private static void checkGroups(List<Action> actions, Set<Long> ids, String where) {
    for (Action a : actions) {
      if (a instanceof Action.Group g && !ids.contains(g.groupId())) {
        throw new IllegalArgumentException(
            where + " names group " + g.groupId() + ", which the desired state lacks");
      }
    }
  }
}
