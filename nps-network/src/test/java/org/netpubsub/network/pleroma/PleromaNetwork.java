package org.netpubsub.network.pleroma;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeMap;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.Dz;
import org.netpubsub.content.index.DzSet;
import org.netpubsub.network.forwarding.UnicastRouting;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.sim.SimulatedNetwork;
import org.netpubsub.network.sim.Trace;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * A configurator driving a simulated network the way the controller drives switches: the deltas'
 * flow-mods are applied to the switches (DP-config), and the checks compare deliveries with ground
 * truth computed from the requests alone, and the switches' tables with the configurator's view.
 */
final class PleromaNetwork {
  static final int EVENT_DEPTH = 7;

  final SimulatedNetwork net;
  Configurator configurator;
  private final Random random;
  private int nextId = 1;

  PleromaNetwork(Topology topology, long seed) {
    this.net = SimulatedNetwork.of(topology);
    this.configurator = Configurator.on(topology);
    this.random = new Random(seed);
    net.install(UnicastRouting.desiredFlows(topology));
  }

  ConfigurationDelta apply(ConfigurationDelta delta) {
    delta
        .flowMods()
        .forEach(
            (dpid, mods) -> {
              for (FlowMod fm : mods) {
                assertThat(net.apply(dpid, fm)).as("%s at %s", fm, dpid).isEmpty();
              }
            });
    return delta;
  }

  String advertise(String host, DzSet cells) {
    String id = "a-" + nextId++;
    apply(configurator.advertise(new Advertisement(id, address(host), cells)));
    return id;
  }

  String subscribe(String host, int port, DzSet cells) {
    String id = "s-" + nextId++;
    apply(configurator.subscribe(new Subscription(id, address(host), port, cells)));
    return id;
  }

  /** The topology changed: replay on the new tree and bring every switch to the new flows. */
  void rebuild(Topology next) {
    configurator = configurator.rebuiltOn(next);
    SortedMap<Long, List<FlowEntry>> all = new TreeMap<>(SwitchPort.DPID_ORDER);
    UnicastRouting.desiredFlows(next)
        .forEach(
            (dpid, flows) -> {
              List<FlowEntry> both = new ArrayList<>(flows);
              both.addAll(configurator.flows(dpid));
              all.put(dpid, both);
            });
    net.install(all);
  }

  Ipv6Address address(String host) {
    return net.host(host).address();
  }

  /** A random set of 1–3 cells of length 0–4. */
  DzSet randomCells() {
    return RandomCells.of(random, 4);
  }

  Dz randomDz(int length) {
    return RandomCells.dz(random, length);
  }

  /** An event inside the advertisement: one of its cells, extended at random to full length. */
  Dz eventIn(DzSet cells) {
    Dz d = cells.get(random.nextInt(cells.size()));
    while (d.length() < EVENT_DEPTH) {
      d = d.append(random.nextInt(2));
    }
    return d;
  }

  /**
   * Publishes one event from an advertisement's host and checks it reaches exactly the matching
   * subscribers, once each, rewritten to them, and nothing else. Returns the deliveries.
   */
  int publishAndCheck(Advertisement a, Dz event) {
    String from = net.hostName(a.host()).orElseThrow();
    PacketHeaders h =
        PacketHeaders.udp6(a.host(), ContentFlows.address(event), 40000, ContentFlows.EVENT_PORT);
    Trace t = net.send(from, h);
    assertThat(t.loop()).isFalse();
    Map<String, Integer> want = new HashMap<>();
    Host publisher = net.host(from);
    for (Subscription s : configurator.subscriptions().values()) {
      Host sub = configurator.topology().host(s.host()).orElseThrow();
      if (s.cells().covers(event) && !sub.attachment().equals(publisher.attachment())) {
        want.merge(net.hostName(s.host()).orElseThrow() + ":" + s.udpPort(), 1, Integer::sum);
      }
    }
    Map<String, Integer> got = new HashMap<>();
    for (Trace.Delivery d : t.deliveries()) {
      Host to = net.host(d.host());
      assertThat(d.headers().ipv6Dst()).as("rewritten to the host").isEqualTo(to.address());
      got.merge(d.host() + ":" + d.headers().udpDst(), 1, Integer::sum);
    }
    // several subscriptions with one host and port share one datagram
    want.replaceAll((k, v) -> 1);
    assertThat(got).as("event %s from %s", event, from).isEqualTo(want);
    return t.deliveries().size();
  }

  /**
   * DP-config equals CP-config: each switch holds the unicast flows plus exactly the content flows.
   */
  void checkTablesEqualConfigurator() {
    for (long dpid : configurator.topology().switches()) {
      List<FlowEntry> content =
          net.switchAt(dpid).flows().stream()
              .filter(f -> f.cookie() == ContentFlows.COOKIE)
              .toList();
      assertThat(content).containsExactlyInAnyOrderElementsOf(configurator.flows(dpid));
    }
  }

  int randomInt(int bound) {
    return random.nextInt(bound);
  }
}
