package org.netpubsub.network.invariants;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Egress;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Forwarding;
import org.netpubsub.network.openflow.GroupEntry;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.openflow.SimulatedSwitch;
import org.netpubsub.network.sim.SimulatedNetwork;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The checker's naive twin: the whole network simulated (every switch's own pipeline, every
 * forwarding it may choose), every given address sent in by every port of every switch and followed
 * copy by copy. Same definitions as {@link FlowInvariants}, none of its machinery.
 */
final class NaiveFlowWalk {
  private final Topology topology;
  private final SimulatedNetwork net;
  private final boolean everyMiss; // a content address's miss after a link is a black hole too

  NaiveFlowWalk(
      Topology topology, Map<Long, List<FlowEntry>> flows, Map<Long, List<GroupEntry>> groups) {
    this(topology, flows, groups, false);
  }

  /**
   * With {@code everyMiss}, as the checker judges the Camus pipeline's query addresses: a miss in
   * table 0 after a link is a black hole for any address.
   */
  NaiveFlowWalk(
      Topology topology,
      Map<Long, List<FlowEntry>> flows,
      Map<Long, List<GroupEntry>> groups,
      boolean everyMiss) {
    this.topology = topology;
    this.everyMiss = everyMiss;
    this.net = SimulatedNetwork.of(topology);
    groups.forEach((d, gs) -> gs.forEach(g -> must(net.switchAt(d).apply(GroupMod.add(g)))));
    flows.forEach((d, fs) -> fs.forEach(f -> must(net.switchAt(d).apply(FlowMod.add(f)))));
  }

  private static void must(java.util.Optional<?> error) {
    if (error.isPresent()) {
      throw new IllegalStateException("the simulated switch refused: " + error.get());
    }
  }

  /** Whether some address breaks an invariant on a path through a changed switch. */
  boolean violated(List<Ipv6Address> addresses, Set<Long> changed, int eventPort) {
    return addresses.stream().anyMatch(a -> violated(a, changed, eventPort));
  }

  boolean violated(Ipv6Address a, Set<Long> changed, int eventPort) {
    PacketHeaders h = PacketHeaders.udp6(Ipv6Address.ZERO, a, eventPort, eventPort);
    for (long dpid : topology.switches()) {
      for (long port : topology.ports(dpid)) {
        if (walk(dpid, port, h, false, new ArrayList<>(), new HashSet<>(), changed)) {
          return true;
        }
      }
    }
    return false;
  }

  private record Step(long dpid, long inPort, PacketHeaders h) {}

  private boolean walk(
      long dpid,
      long inPort,
      PacketHeaders h,
      boolean byLink,
      List<Long> path,
      Set<Step> onPath,
      Set<Long> changed) {
    path.add(dpid);
    try {
      Step s = new Step(dpid, inPort, h);
      if (path.size() > FlowInvariants.MAX_HOPS + 1 || onPath.contains(s)) {
        return path.stream().anyMatch(changed::contains);
      }
      SimulatedSwitch sw = net.switchAt(dpid);
      boolean unicast = everyMiss || (a(h) >>> 56) != 0xff;
      boolean miss =
          sw.flows().stream().noneMatch(f -> f.tableId() == 0 && f.match().matches(h, inPort, 0));
      if (byLink && unicast && miss && path.stream().anyMatch(changed::contains)) {
        return true;
      }
      onPath.add(s);
      for (Forwarding f : sw.possibleForwardings(inPort, h)) {
        for (Egress e : f.egresses()) {
          if (!SwitchPort.isPhysical(e.port())) {
            continue; // the controller, the local port: ends
          }
          var link = topology.linkAt(new SwitchPort(dpid, e.port()));
          if (link.isPresent()) {
            SwitchPort peer = link.get().peer(new SwitchPort(dpid, e.port()));
            if (walk(peer.dpid(), peer.port(), e.headers(), true, path, onPath, changed)) {
              return true;
            }
          }
        }
      }
      onPath.remove(s);
      return false;
    } finally {
      path.removeLast();
    }
  }

  private static long a(PacketHeaders h) {
    return h.ipv6Dst().high();
  }
}
