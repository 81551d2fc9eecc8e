package org.netpubsub.controller.local;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.netpubsub.network.openflow.Egress;
import org.netpubsub.network.openflow.Forwarding;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.topology.SwitchPort;

/**
 * One packet's trip through the local network: it enters at a host port, each switch's tables
 * decide where its copies go ({@link Tables}), cables carry them to the next switch, and copies
 * that leave by a host port are the deliveries. As {@code SimulatedNetwork}'s walk, over switches
 * that live behind OpenFlow connections. Pure: no I/O, no threads.
 */
public final class LocalFabric {
  /** A copy that crosses more cables than this is in a loop and is dropped. */
  static final int MAX_HOPS = 64;

  /** The switches' tables. */
  @FunctionalInterface
  public interface Tables {
    Forwarding process(long dpid, long inPort, PacketHeaders headers);
  }

  /** A copy that left the network by a host port, with the headers the last switch wrote. */
  public record Delivery(SwitchPort port, PacketHeaders headers) {}

  /** The deliveries, and whether a copy was dropped for looping. */
  public record Trip(List<Delivery> deliveries, boolean looped) {}

  private final LocalTopology wiring;
  private final Tables tables;

  public LocalFabric(LocalTopology wiring, Tables tables) {
    this.wiring = wiring;
    this.tables = tables;
  }

  private record Copy(SwitchPort in, PacketHeaders headers, int hops) {}

  /** Runs a packet that a host sends into {@code ingress}. */
  public Trip send(SwitchPort ingress, PacketHeaders headers) {
    List<Delivery> out = new ArrayList<>();
    boolean looped = false;
    ArrayDeque<Copy> queue = new ArrayDeque<>();
    queue.add(new Copy(ingress, headers, 0));
    while (!queue.isEmpty()) {
      Copy c = queue.poll();
      Forwarding f = tables.process(c.in().dpid(), c.in().port(), c.headers());
      for (Egress e : f.egresses()) {
        if (e.port() == OfPort.CONTROLLER || e.port() == OfPort.LOCAL) {
          continue; // the controller learns nothing from events; there is no local stack
        }
        SwitchPort leaving = SwitchPort.of(c.in().dpid(), e.port());
        Optional<SwitchPort> next = wiring.peer(leaving);
        if (next.isEmpty()) {
          out.add(new Delivery(leaving, e.headers()));
        } else if (c.hops() >= MAX_HOPS) {
          looped = true;
        } else {
          queue.add(new Copy(next.get(), e.headers(), c.hops() + 1));
        }
      }
    }
    return new Trip(out, looped);
  }
}
