package org.netpubsub.network.pleroma;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.topology.SwitchPort;

/**
 * What one request changed: the content-flow changes per switch (in the order made), the covering
 * cases met, and how many publisher–subscriber paths were set up or torn down.
 */
public final class ConfigurationDelta {
  private final SortedMap<Long, List<TableChange>> changes = new TreeMap<>(SwitchPort.DPID_ORDER);
  private final int[] cases = new int[FlowAdditionCase.values().length];
  private int paths;
  private int unreachablePaths;

  void record(long dpid, List<TableChange> list) {
    if (!list.isEmpty()) {
      changes.computeIfAbsent(dpid, d -> new ArrayList<>()).addAll(list);
    }
  }

  void count(FlowAdditionCase c) {
    count(c, 1);
  }

  void count(FlowAdditionCase c, int times) {
    cases[c.ordinal()] += Math.max(0, times);
  }

  void countPath(boolean reachable) {
    if (reachable) {
      paths++;
    } else {
      unreachablePaths++;
    }
  }

  void countPaths(int reachable, int unreachable) {
    paths += reachable;
    unreachablePaths += unreachable;
  }

  /** Per switch, the flow changes in the order they were made (a dz may change more than once). */
  public SortedMap<Long, List<TableChange>> changes() {
    return Collections.unmodifiableSortedMap(changes);
  }

  /** Per switch, the flow-mods that carry the changes out (see {@link ContentFlows#flowMods}). */
  public SortedMap<Long, List<FlowMod>> flowMods() {
    SortedMap<Long, List<FlowMod>> out = new TreeMap<>(SwitchPort.DPID_ORDER);
    changes.forEach((dpid, list) -> out.put(dpid, ContentFlows.flowMods(list)));
    return out;
  }

  /** The number of flow-mods {@link #flowMods} sends. */
  public int flowModCount() {
    return flowMods().values().stream().mapToInt(List::size).sum();
  }

  /** How often each covering case was met (cases never met are absent). */
  public Map<FlowAdditionCase, Integer> cases() {
    Map<FlowAdditionCase, Integer> out = new EnumMap<>(FlowAdditionCase.class);
    for (FlowAdditionCase c : FlowAdditionCase.values()) {
      if (cases[c.ordinal()] > 0) {
        out.put(c, cases[c.ordinal()]);
      }
    }
    return Collections.unmodifiableMap(out);
  }

  /** Publisher–subscriber paths set up (or torn down) on the tree. */
  public int paths() {
    return paths;
  }

  /** Pairs that overlap but whose hosts the tree does not connect (no flows for them). */
  public int unreachablePaths() {
    return unreachablePaths;
  }

  public boolean isEmpty() {
    return changes.isEmpty();
  }
}
