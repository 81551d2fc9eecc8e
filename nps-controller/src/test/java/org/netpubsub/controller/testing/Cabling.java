package org.netpubsub.controller.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.netpubsub.controller.sim.PacketOutRecord;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Cables between simulated switches for controller tests: {@link #relay} hands each new packet-out
 * (LLDP probes) to the switch at the other end of the cable, as a packet-in, when the ports at both
 * ends are up. Call it from a {@link Wait} tick.
 */
public final class Cabling {
  private final Map<Long, SimulatedOpenFlowSwitch> switches;
  private final Map<SwitchPort, SwitchPort> cables = new HashMap<>();
  private final Map<Long, Integer> relayed = new HashMap<>();

  /** Cables among these switches (by datapath id); the map may still be filled later. */
  public Cabling(Map<Long, SimulatedOpenFlowSwitch> switches) {
    this.switches = switches;
  }

  public Cabling cable(long d1, long p1, long d2, long p2) {
    cables.put(SwitchPort.of(d1, p1), SwitchPort.of(d2, p2));
    cables.put(SwitchPort.of(d2, p2), SwitchPort.of(d1, p1));
    return this;
  }

  /** Delivers new packet-outs across the cables. */
  public void relay() {
    for (SimulatedOpenFlowSwitch sw : switches.values()) {
      List<PacketOutRecord> outs = sw.packetOuts();
      int from = relayed.getOrDefault(sw.dpid(), 0);
      relayed.put(sw.dpid(), outs.size());
      for (PacketOutRecord r : outs.subList(from, outs.size())) {
        for (Action a : r.actions()) {
          if (a instanceof Action.Output o) {
            SwitchPort peer = cables.get(SwitchPort.of(sw.dpid(), o.port()));
            SimulatedOpenFlowSwitch to = peer == null ? null : switches.get(peer.dpid());
            if (to != null && to.isConnected() && up(sw, o.port()) && up(to, peer.port())) {
              to.sendPacketIn(peer.port(), 0, UnicastRouting.COOKIE, r.frame());
            }
          }
        }
      }
    }
  }

  private static boolean up(SimulatedOpenFlowSwitch sw, long port) {
    return sw.ports().stream().anyMatch(p -> p.number() == port && p.up());
  }
}
