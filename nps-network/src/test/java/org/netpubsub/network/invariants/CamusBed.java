package org.netpubsub.network.invariants;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.network.camus.RoutingPolicy;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.topology.TestTopologies;
import org.netpubsub.network.topology.Topology;

/**
 * What the Camus check's properties start from: a random Camus pipeline on a small hierarchy
 * ({@code shape} 0: a tree of depth 1 and fan-out 3, 1: depth 2 and fan-out 2, else a fat tree of k
 * = 2), every switch's flows and groups installed in a checker and kept in {@link #flows} and
 * {@link #groups} (mutable: a property changes them as it breaks or updates switches).
 */
final class CamusBed {
  final Topology topology;
  final CamusTables camus;
  final FlowInvariants checker;
  final Map<Long, List<FlowEntry>> flows = new HashMap<>();
  final Map<Long, List<GroupEntry>> groups = new HashMap<>();

  CamusBed(int shape, long seed, boolean mr, int subscriptions) {
    topology =
        switch (shape) {
          case 0 -> TestTopologies.tree(1, 3);
          case 1 -> TestTopologies.tree(2, 2);
          default -> TestTopologies.fatTree(2);
        };
    camus =
        new CamusTables(topology, seed, mr ? RoutingPolicy.MR : RoutingPolicy.TR, subscriptions);
    checker = new FlowInvariants(topology, CamusTables.EVENT_PORT);
    for (long dpid : topology.switches()) {
      flows.put(dpid, camus.flows(dpid));
      groups.put(dpid, camus.groups(dpid));
      checker.put(dpid, flows.get(dpid), groups.get(dpid));
    }
  }
}
