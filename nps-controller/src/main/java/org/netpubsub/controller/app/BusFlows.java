package org.netpubsub.controller.app;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Match;

/**
 * The flows apps on the northbound bus install, as part of the switches' desired state, so a
 * reconcile (after a topology change or a reconnect) keeps them instead of deleting them. Flows
 * with an idle or hard timeout stay transient: the switch expires them, and keeping them would make
 * the next reconcile bring back what expired; their app installs them again when traffic returns (a
 * learning switch does).
 *
 * <p>OpenFlow's non-strict MODIFY and DELETE act on every flow whose match the mod's covers; here
 * they act on the flow with exactly the mod's (table, priority, match), as the strict ones do. Runs
 * on the controller loop.
 */
final class BusFlows {
  private record Key(int table, int priority, Match match) {}

  private final Map<Long, Map<Key, FlowEntry>> flows = new HashMap<>();

  /**
   * Takes an app's flow-mod into the desired state; false if it leaves the desired state as it was
   * (a flow with a timeout, or a delete of a flow not kept here): then it only goes to the switch.
   */
  boolean record(long dpid, FlowMod mod) {
    Key key = new Key(mod.tableId(), mod.priority(), mod.match());
    Map<Key, FlowEntry> kept = flows.computeIfAbsent(dpid, d -> new LinkedHashMap<>());
    if (mod.command().isDelete()) {
      return kept.remove(key) != null;
    }
    if (mod.idleTimeout() > 0 || mod.hardTimeout() > 0) {
      return kept.remove(key) != null; // a timed flow replaces a kept one: no longer kept
    }
    FlowEntry entry = mod.toEntry();
    return !entry.equals(kept.put(key, entry));
  }

  /** The kept flows of one switch. */
  List<FlowEntry> flows(long dpid) {
    return new ArrayList<>(flows.getOrDefault(dpid, Map.of()).values());
  }
}
