package org.netpubsub.controller.app;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.netpubsub.controller.nbi.AppContext;
import org.netpubsub.controller.southbound.PortInfo;
import org.netpubsub.controller.southbound.SwitchHandle;
import org.netpubsub.network.discovery.DiscoveryClock;
import org.netpubsub.network.discovery.HostRefusals;
import org.netpubsub.network.discovery.Ipv6NeighborDiscovery;
import org.netpubsub.network.discovery.LinkDiscovery;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;
import org.netpubsub.network.topology.TopologyChange;

/**
 * What the network tells the {@link NetworkController} about its topology: links from LLDP probes
 * it sends and their expiry ({@link LinkDiscovery}), hosts from IPv6 neighbour discovery ({@link
 * Ipv6NeighborDiscovery}, the refusals of full ports counted in {@link HostRefusals}), and the
 * proxy answers to solicitations for known hosts. It turns those into {@link TopologyChange}s and
 * hands them to the controller, which owns the topology and the flows that follow from it.
 *
 * <p>Everything but {@link #hostRefusals} runs on the controller loop (no locks).
 */
final class TopologyLearning {
  private final ControllerConfig config;
  private final Supplier<Topology> topology;
  private final Map<Long, SwitchHandle> connected;
  private final Consumer<List<TopologyChange>> apply;
  private final LinkDiscovery discovery;
  private final DiscoveryClock discoveryClock; // loop stalls do not age links
  private final HostRefusals hostRefusals = new HostRefusals();

  /**
   * Learns for the switches in {@code connected} (the controller's, read on the loop), reading the
   * controller's current topology and handing it the changes through {@code apply}.
   */
  TopologyLearning(
      ControllerConfig config,
      long tickMillis,
      Supplier<Topology> topology,
      Map<Long, SwitchHandle> connected,
      Consumer<List<TopologyChange>> apply) {
    this.config = config;
    this.topology = topology;
    this.connected = connected;
    this.apply = apply;
    long nonce = new SecureRandom().nextLong();
    LinkDiscovery.Config d = LinkDiscovery.Config.defaults(nonce);
    this.discoveryClock = new DiscoveryClock(config.clock().getAsLong(), 2 * tickMillis);
    // the ports' probes spread over the ticks of an interval, not all at one tick: a burst of
    // packet-outs and LLDP packet-ins on the loop (the switches' event loop too) delays the
    // flow-mods and barrier replies queued behind it (docs/results/ovs-response-p99.md, stop 40)
    int slots = Math.clamp(config.probeIntervalMillis() / tickMillis, 1, 1000);
    this.discovery =
        new LinkDiscovery(
            new LinkDiscovery.Config(
                    config.probeIntervalMillis(), d.expiryIntervals(), nonce, d.source())
                .spreadOver(slots));
  }

  /** Hosts neighbour discovery did not learn (full ports); read from any thread. */
  HostRefusals hostRefusals() {
    return hostRefusals;
  }

  /** The periodic work: probes every up port whose turn it is, and expires links not seen. */
  void tick() {
    long now = discoveryNow();
    sendProbes(now);
    apply.accept(discovery.expire(now));
  }

  /** Probes the ports whose turn it is (a new switch or port gets its probes at once). */
  void sendProbes() {
    sendProbes(discoveryNow());
  }

  /** An LLDP probe came back: a link. */
  void onLldp(PacketInView in) {
    apply.accept(discovery.onLldp(discoveryNow(), in.dpid(), in.inPort(), in.data()));
  }

  /** Host tracking: a neighbour solicitation or advertisement tells where its sender sits. */
  void learnHost(PacketInView in) {
    apply.accept(
        Ipv6NeighborDiscovery.learn(
            topology.get(), in.dpid(), in.inPort(), in.data(), hostRefusals));
  }

  /** The REPLY set: learns the soliciting host, then answers for the known target. */
  void answerSolicitation(PacketInView in, AppContext core) {
    learnHost(in);
    Optional<byte[]> answer = Ipv6NeighborDiscovery.answer(topology.get(), in.data());
    if (answer.isPresent() && SwitchPort.isPhysical(in.inPort())) {
      core.packetOut(in, in.dpid(), in.inPort(), answer.get());
    }
  }

  /** A switch left: its links are gone (it and its hosts stay known; it usually comes back). */
  void switchRemoved(long dpid) {
    apply.accept(discovery.onSwitchRemoved(dpid));
  }

  /** A port went down or was deleted: its links are gone. */
  void portDown(long dpid, long port) {
    apply.accept(discovery.onPortDown(dpid, port));
  }

  /** A port came up: probed at once (the controller adds it to the topology). */
  void portUp(long dpid, long port) {
    discovery.onPortUp(dpid, port);
  }

  /** The physical ports of a switch that are up. */
  static List<Long> upPorts(SwitchHandle sw) {
    List<Long> out = new ArrayList<>();
    for (PortInfo p : sw.ports()) {
      if (p.up() && SwitchPort.isPhysical(p.number())) {
        out.add(p.number());
      }
    }
    return out;
  }

  private long discoveryNow() {
    return discoveryClock.read(config.clock().getAsLong());
  }

  private void sendProbes(long now) {
    SortedMap<Long, List<Long>> ports = new TreeMap<>(SwitchPort.DPID_ORDER);
    connected.forEach((dpid, sw) -> ports.put(dpid, upPorts(sw)));
    for (LinkDiscovery.Probe p : discovery.probes(now, ports)) {
      SwitchHandle sw = connected.get(p.dpid());
      if (sw != null) {
        sw.packetOut(OfPort.CONTROLLER, List.of(Action.output(p.port())), p.bytes());
      }
    }
  }
}
