package org.netpubsub.controller.southbound;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.Bucket;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowFlag;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowModCommand;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.Match;

/**
 * Computes the fewest messages that turn a switch's actual flows and groups (from flow-stats and
 * group-desc replies) into a desired state. Pure.
 *
 * <p>Flows are identified as OpenFlow identifies them: by (table, priority, match). The model's
 * values are normalised on construction (masked values ANDed, zero masks dropped, instructions in
 * execution order, max_len only for CONTROLLER), and counters and durations are not part of them,
 * so {@code equals} is the comparison. Order of the plan:
 *
 * <ol>
 *   <li>missing groups added and changed groups modified, a group before the groups whose buckets
 *       name it;
 *   <li>extra flows that would make a desired CHECK_OVERLAP add fail, deleted (DELETE_STRICT);
 *   <li>missing flows added; flows whose instructions alone differ modified (MODIFY_STRICT keeps
 *       their counters); flows that differ otherwise (cookie, flags, timeouts) replaced by an ADD,
 *       which overwrites the identical entry;
 *   <li>the other extra flows deleted (DELETE_STRICT) — after the adds, so traffic moves to the new
 *       flows before the old ones go;
 *   <li>extra groups deleted last, once no flow names them (a group delete also deletes the flows
 *       that name it).
 * </ol>
 *
 * <p>A {@link ReconcileScope} limits the plan to the flows (and groups) it selects: entries outside
 * it are neither added, changed nor deleted, on either side.
 */
public final class Reconciler {
  private Reconciler() {}

  /** How OpenFlow identifies a flow entry: its table, priority and match. */
  public record FlowKey(int tableId, int priority, Match match) {
    public static FlowKey of(FlowEntry e) {
      return new FlowKey(e.tableId(), e.priority(), e.match());
    }
  }

  public static ReconcilePlan plan(
      DesiredState desired, List<FlowEntry> actualFlows, List<GroupEntry> actualGroups) {
    return plan(desired, actualFlows, actualGroups, ReconcileScope.EVERYTHING);
  }

  /** {@link #plan} of only what {@code scope} selects. */
  public static ReconcilePlan plan(
      DesiredState desired,
      List<FlowEntry> actualFlows,
      List<GroupEntry> actualGroups,
      ReconcileScope scope) {
    if (scope == ReconcileScope.EVERYTHING) {
      return plan(desired.flows(), desired.groups(), actualFlows, actualGroups);
    }
    return plan(
        desired.flows().stream().filter(scope.flows()).toList(),
        scope.groups() ? desired.groups() : List.of(),
        actualFlows.stream().filter(scope.flows()).toList(),
        scope.groups() ? actualGroups : List.of());
  }

  private static ReconcilePlan plan(
      List<FlowEntry> desiredFlows,
      List<GroupEntry> desiredGroups,
      List<FlowEntry> actualFlows,
      List<GroupEntry> actualGroups) {
    Map<Long, GroupEntry> actualGroupsById = new TreeMap<>(Long::compareUnsigned);
    actualGroups.forEach(g -> actualGroupsById.put(g.groupId(), g));
    Map<FlowKey, FlowEntry> actual = new LinkedHashMap<>();
    actualFlows.forEach(f -> actual.put(FlowKey.of(f), f));
    Map<FlowKey, FlowEntry> wanted = new LinkedHashMap<>();
    desiredFlows.forEach(f -> wanted.put(FlowKey.of(f), f));

    List<SwitchMod> mods = new ArrayList<>();
    int[] groupCounts = addGroups(desiredGroups, actualGroupsById, mods);

    List<FlowEntry> extra =
        actual.values().stream().filter(f -> !wanted.containsKey(FlowKey.of(f))).toList();
    Set<FlowEntry> deleteFirst = new LinkedHashSet<>();
    for (FlowEntry d : desiredFlows) {
      if (d.flags().contains(FlowFlag.CHECK_OVERLAP) && !actual.containsKey(FlowKey.of(d))) {
        extra.stream()
            .filter(
                x ->
                    x.tableId() == d.tableId()
                        && x.priority() == d.priority()
                        && x.match().overlaps(d.match()))
            .forEach(deleteFirst::add);
      }
    }
    deleteFirst.forEach(x -> mods.add(SwitchMod.of(FlowMod.deleteStrict(x))));

    int added = 0;
    int modified = 0;
    for (FlowEntry d : desiredFlows) {
      FlowEntry a = actual.get(FlowKey.of(d));
      if (d.equals(a)) {
        continue;
      }
      if (a != null && a.withInstructions(d.instructions()).equals(d)) {
        mods.add(SwitchMod.of(modifyStrict(d)));
        modified++;
      } else {
        mods.add(SwitchMod.of(FlowMod.add(d)));
        added++;
      }
    }
    for (FlowEntry x : extra) {
      if (!deleteFirst.contains(x)) {
        mods.add(SwitchMod.of(FlowMod.deleteStrict(x)));
      }
    }

    Set<Long> desiredIds = new LinkedHashSet<>();
    desiredGroups.forEach(g -> desiredIds.add(g.groupId()));
    List<GroupEntry> extraGroups =
        actualGroupsById.values().stream().filter(g -> !desiredIds.contains(g.groupId())).toList();
    List<GroupEntry> deleteOrder = new ArrayList<>(dependencyOrder(extraGroups));
    java.util.Collections.reverse(deleteOrder); // a group before the groups it names
    deleteOrder.forEach(g -> mods.add(SwitchMod.of(GroupMod.delete(g.groupId()))));

    return new ReconcilePlan(
        mods, groupCounts[0], groupCounts[1], added, modified, extra.size(), extraGroups.size());
  }

  private static FlowMod modifyStrict(FlowEntry d) {
    return FlowMod.builder(FlowModCommand.MODIFY_STRICT)
        .table(d.tableId())
        .priority(d.priority())
        .match(d.match())
        .instructions(d.instructions())
        .cookie(d.cookie())
        .flags(d.flags())
        .idleTimeout(d.idleTimeout())
        .hardTimeout(d.hardTimeout())
        .build();
  }

  /** Adds and modifies groups so that a group exists before a bucket names it; counts. */
  private static int[] addGroups(
      List<GroupEntry> desired, Map<Long, GroupEntry> actual, List<SwitchMod> mods) {
    int added = 0;
    int modified = 0;
    for (GroupEntry g : dependencyOrder(desired)) {
      GroupEntry a = actual.get(g.groupId());
      if (a == null) {
        mods.add(SwitchMod.of(GroupMod.add(g)));
        added++;
      } else if (!a.equals(g)) {
        mods.add(SwitchMod.of(GroupMod.modify(g)));
        modified++;
      }
    }
    return new int[] {added, modified};
  }

  /**
   * The groups ordered so that a group named by another's bucket comes first (depth-first post
   * order; names of groups outside the list are ignored, and a cycle is broken where it closes).
   */
  static List<GroupEntry> dependencyOrder(List<GroupEntry> groups) {
    Map<Long, GroupEntry> byId = new TreeMap<>(Long::compareUnsigned);
    groups.forEach(g -> byId.put(g.groupId(), g));
    Set<Long> visited = new LinkedHashSet<>();
    List<GroupEntry> out = new ArrayList<>();
    for (GroupEntry g : byId.values()) {
      visit(g, byId, visited, out);
    }
    return out;
  }

  private static void visit(
      GroupEntry g, Map<Long, GroupEntry> byId, Set<Long> visited, List<GroupEntry> out) {
    if (!visited.add(g.groupId())) {
      return;
    }
    for (Bucket b : g.buckets()) {
      for (Action a : b.actions()) {
        if (a instanceof Action.Group ref && byId.containsKey(ref.groupId())) {
          visit(byId.get(ref.groupId()), byId, visited, out);
        }
      }
    }
    out.add(g);
  }
}
