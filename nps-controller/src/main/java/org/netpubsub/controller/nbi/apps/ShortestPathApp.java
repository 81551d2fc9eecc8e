package org.netpubsub.controller.nbi.apps;

import java.util.List;
import java.util.Optional;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.controller.nbi.AppContext;
import org.netpubsub.controller.nbi.ControllerApp;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.topology.Hop;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Path;
import org.netpubsub.network.topology.Topology;

/**
 * Reactive shortest-path forwarding on the bus (after Ryu's shortest-path apps): for a packet-in to
 * a host the topology knows, it installs a flow for that destination on every switch of the
 * shortest path from the asking switch (the last one delivers to the host's port), farthest first
 * so the packet never outruns its path, then sends the packet on. Packets for unknown hosts are
 * dropped: hosts become known through neighbour discovery (host tracking), and unlike the learning
 * switch it never floods, so loops in the topology are harmless.
 */
public final class ShortestPathApp implements ControllerApp {
  /** Seconds a path's flows live without traffic. */
  static final int IDLE_TIMEOUT = 60;

  static final int PRIORITY = SwitchLayout.NORTHBOUND_PRIORITY;

  private final String name;
  private final List<NbiTopic> topics;
  private Topology topology = Topology.EMPTY; // the app's thread only

  public ShortestPathApp(String name, List<NbiTopic> topics) {
    this.name = name;
    this.topics = List.copyOf(topics);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public List<NbiTopic> topics() {
    return topics;
  }

  @Override
  public void onTopology(Topology t) {
    topology = t;
  }

  @Override
  public void onPacketIn(PacketInView in, AppContext bus) {
    Optional<Ipv6Address> dst = in.headers().ipv6Dst();
    Optional<Host> host = dst.flatMap(topology::host);
    if (host.isEmpty()) {
      return;
    }
    long home = host.get().attachment().dpid();
    Optional<Path> path = topology.shortestPath(in.dpid(), home);
    if (path.isEmpty()) {
      return;
    }
    List<Hop> hops = path.get().hops();
    if (!install(bus, home, host.get().attachment().port(), dst.get())) {
      return;
    }
    for (int i = hops.size() - 1; i >= 0; i--) {
      Hop h = hops.get(i);
      if (!install(bus, h.from().dpid(), h.from().port(), dst.get())) {
        return;
      }
    }
    long out = hops.isEmpty() ? host.get().attachment().port() : hops.get(0).from().port();
    bus.packetOut(in, in.dpid(), out, in.data());
  }

  private static boolean install(AppContext bus, long dpid, long port, Ipv6Address dst) {
    FlowEntry flow =
        FlowEntry.builder()
            .priority(PRIORITY)
            .match(Match.builder().ipv6().ipv6Dst(MaskedIpv6.exact(dst)).build())
            .apply(Action.output(port))
            .idleTimeout(IDLE_TIMEOUT)
            .build();
    return bus.flowMod(dpid, FlowMod.add(flow)).accepted();
  }
}
