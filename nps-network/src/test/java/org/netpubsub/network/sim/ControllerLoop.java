package org.netpubsub.network.sim;

import java.util.ArrayList;
import java.util.List;
import org.netpubsub.network.discovery.Ipv6NeighborDiscovery;
import org.netpubsub.network.discovery.LinkDiscovery;
import org.netpubsub.network.discovery.LldpFrame;
import org.netpubsub.network.discovery.NdCodec;
import org.netpubsub.network.discovery.NdMessage;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Topology;
import org.netpubsub.network.topology.TopologyChange;

/**
 * What the controller will do, wired to a simulated network instead of OpenFlow connections: starts
 * knowing only the switches and their ports, sends LLDP probes as packet-outs, feeds packet-ins to
 * link discovery and host learning, and installs the base app's flows.
 */
final class ControllerLoop {
  final SimulatedNetwork net;
  final LinkDiscovery discovery;
  Topology believed;
  final List<TopologyChange> changes = new ArrayList<>();

  ControllerLoop(SimulatedNetwork net, long nonce) {
    this.net = net;
    this.discovery = new LinkDiscovery(LinkDiscovery.Config.defaults(nonce));
    Topology t = Topology.EMPTY;
    for (var e : net.wiring().switchPorts().entrySet()) {
      t = t.addSwitch(e.getKey(), e.getValue());
    }
    this.believed = t;
  }

  /** Installs the flows for what the controller believes. */
  void reconcile() {
    net.install(UnicastRouting.desiredFlows(believed));
  }

  /** Sends the probes due at {@code now} and handles the packet-ins they cause; then expires. */
  void tick(long now) {
    for (LinkDiscovery.Probe p : discovery.probes(now, believed.switchPorts())) {
      Trace t = net.packetOut(p.dpid(), p.port(), LldpFrame.headers(), new Payload(p.bytes()));
      t.packetIns().forEach(pi -> packetIn(now, pi));
    }
    apply(discovery.expire(now));
  }

  /** Every host announces itself by duplicate address detection. */
  void hostsAnnounce() {
    for (String name : net.hostNames()) {
      Host h = net.host(name);
      NdMessage dad = NdMessage.dad(h.mac(), h.address());
      net.send(name, dad.headers(), new Payload(NdCodec.encode(dad)))
          .packetIns()
          .forEach(pi -> packetIn(0, pi));
    }
  }

  void packetIn(long now, Trace.PacketIn pi) {
    byte[] frame = pi.payload().bytes();
    if (pi.headers().ethType() == PacketHeaders.ETH_TYPE_LLDP) {
      apply(discovery.onLldp(now, pi.dpid(), pi.inPort(), frame));
    } else if (pi.headers().isIcmpv6()) {
      apply(Ipv6NeighborDiscovery.learn(believed, pi.dpid(), pi.inPort(), frame));
    }
  }

  void apply(List<TopologyChange> cs) {
    changes.addAll(cs);
    believed = believed.applyAll(cs);
  }
}
