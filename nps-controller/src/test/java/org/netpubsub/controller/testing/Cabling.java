package org.netpubsub.controller.testing;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.netpubsub.controller.sim.PacketOutRecord;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Cables between simulated switches for controller tests: {@link #relay} hands each new packet-out
 * (LLDP probes) to the switch at the other end of the cable, as a packet-in, when the ports at both
 * ends are up. Call it from a {@link Wait} tick, or keep the cables {@link #live} while the test
 * blocks in something else: a cable carries nothing while nobody relays, and the controller drops a
 * link whose probes do not come back within its expiry (3 probe intervals).
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

  /**
   * Relays on a thread of its own every few milliseconds until closed, as real cables would; for a
   * test that blocks outside a {@link Wait} (e.g. an app connecting to the northbound bus).
   */
  public AutoCloseable live() {
    AtomicBoolean on = new AtomicBoolean(true);
    Thread t =
        Thread.ofPlatform()
            .daemon()
            .name("cabling-relay")
            .start(
                () -> {
                  while (on.get()) {
                    relay();
                    LockSupport.parkNanos(5_000_000); // a poll interval, as Wait's
                  }
                });
    return () -> {
      on.set(false);
      t.join();
    };
  }

  /** Delivers new packet-outs across the cables (from one thread at a time). */
  public synchronized void relay() {
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
