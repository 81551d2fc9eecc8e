package org.netpubsub.network.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.openflow.Egress;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.Forwarding;
import org.netpubsub.network.openflow.GroupMod;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.OpenFlowError;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.openflow.SimulatedSwitch;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * Simulated switches wired as a topology says, with named hosts at edge ports. Flows change only
 * through {@link FlowMod}s and {@link GroupMod}s, so control logic runs unchanged here and on real
 * switches. {@link #send} follows a packet from a host through the switches' tables and the links
 * and reports a {@link Trace}; {@link #packetOut} injects a frame at a switch port as a controller
 * packet-out does. The wiring is fixed; links and ports go down and up. Single-threaded.
 */
public final class SimulatedNetwork {
  /** A copy that crosses more links than this is in a loop. */
  public static final int MAX_HOPS = 64;

  /** A trip that makes more switch lookups than this is a broadcast storm: reported as a loop. */
  static final int MAX_LOOKUPS = 100_000;

  private final Topology wiring;
  private final Map<Long, SimulatedSwitch> switches = new TreeMap<>(SwitchPort.DPID_ORDER);
  private final Map<String, Host> hosts = new TreeMap<>();
  private final Map<SwitchPort, List<String>> hostsAt = new TreeMap<>();
  private final Set<Link> downLinks = new HashSet<>();
  private final Set<SwitchPort> downPorts = new HashSet<>();

  private SimulatedNetwork(Topology wiring, Map<String, Host> named) {
    this.wiring = wiring;
    for (Map.Entry<Long, SortedSet<Long>> e : wiring.switchPorts().entrySet()) {
      long[] ports = e.getValue().stream().mapToLong(Long::longValue).toArray();
      switches.put(e.getKey(), SimulatedSwitch.builder().ports(ports).build());
    }
    named.forEach(
        (name, h) -> {
          hosts.put(name, h);
          hostsAt.computeIfAbsent(h.attachment(), p -> new ArrayList<>()).add(name);
        });
  }

  /** The network of a topology; its hosts are named h1, h2, ... in ascending address order. */
  public static SimulatedNetwork of(Topology t) {
    Map<String, Host> named = new TreeMap<>();
    int i = 1;
    for (Host h : t.hosts().values()) {
      named.put("h" + i++, h);
    }
    return new SimulatedNetwork(t, named);
  }

  /** The network of a topology with hosts named by the caller (every host, distinct names). */
  public static SimulatedNetwork of(Topology t, Map<String, Host> named) {
    if (!t.hosts().values().containsAll(named.values())
        || Set.copyOf(named.values()).size() != named.size()) {
      throw new IllegalArgumentException("names must be given to distinct hosts of the topology");
    }
    return new SimulatedNetwork(t, named);
  }

  /** The physical wiring (every link, up or down) and the hosts. */
  public Topology wiring() {
    return wiring;
  }

  /** The switch of a dpid; IllegalArgumentException if there is none. */
  public SimulatedSwitch switchAt(long dpid) {
    SimulatedSwitch sw = switches.get(dpid);
    if (sw == null) {
      throw new IllegalArgumentException("no switch " + Long.toHexString(dpid));
    }
    return sw;
  }

  public SortedSet<String> hostNames() {
    return Collections.unmodifiableSortedSet(new TreeSet<>(hosts.keySet()));
  }

  /** The host of a name; IllegalArgumentException if there is none. */
  public Host host(String name) {
    Host h = hosts.get(name);
    if (h == null) {
      throw new IllegalArgumentException("no host " + name);
    }
    return h;
  }

  /** The name of the host with this address. */
  public Optional<String> hostName(Ipv6Address address) {
    return hosts.entrySet().stream()
        .filter(e -> e.getValue().address().equals(address))
        .map(Map.Entry::getKey)
        .findFirst();
  }

  /** Applies a flow-mod at a switch; the error the switch answers, if any. */
  public Optional<OpenFlowError> apply(long dpid, FlowMod fm) {
    return switchAt(dpid).apply(fm);
  }

  public Optional<OpenFlowError> apply(long dpid, GroupMod gm) {
    return switchAt(dpid).apply(gm);
  }

  /**
   * Makes every switch hold exactly the given flows (none if absent from the map): a delete of all
   * flows, then an add per entry. IllegalStateException if a switch refuses one.
   */
  public void install(Map<Long, ? extends List<FlowEntry>> flows) {
    for (long dpid : flows.keySet()) {
      switchAt(dpid);
    }
    switches.forEach(
        (dpid, sw) -> {
          sw.apply(FlowMod.deleteAll());
          List<FlowEntry> wanted = flows.containsKey(dpid) ? flows.get(dpid) : List.of();
          for (FlowEntry e : wanted) {
            sw.apply(FlowMod.add(e))
                .ifPresent(
                    err -> {
                      throw new IllegalStateException(
                          Long.toHexString(dpid) + " refused " + e + ": " + err);
                    });
          }
        });
  }

  /** Takes a link down (copies sent onto it are lost) or back up. */
  public void setLinkUp(Link link, boolean up) {
    if (!wiring.links().contains(link)) {
      throw new IllegalArgumentException("no link " + link);
    }
    if (up) {
      downLinks.remove(link);
    } else {
      downLinks.add(link);
    }
    updateLiveness(link.a());
    updateLiveness(link.b());
  }

  /** Takes a port down (nothing enters or leaves by it) or back up. */
  public void setPortUp(SwitchPort port, boolean up) {
    switchAt(port.dpid());
    if (up) {
      downPorts.remove(port);
    } else {
      downPorts.add(port);
    }
    updateLiveness(port);
    wiring.linkAt(port).ifPresent(l -> updateLiveness(l.peer(port)));
  }

  /** A port is live when it is up and, if linked, its link and the peer port are up. */
  private boolean live(SwitchPort p) {
    if (downPorts.contains(p)) {
      return false;
    }
    Optional<Link> l = wiring.linkAt(p);
    return l.isEmpty() || (!downLinks.contains(l.get()) && !downPorts.contains(l.get().peer(p)));
  }

  private void updateLiveness(SwitchPort p) {
    switchAt(p.dpid()).setPortLive(p.port(), live(p));
  }

  /** A host sends a packet: it enters the host's switch by the host's port. */
  public Trace send(String host, PacketHeaders headers) {
    return send(host, headers, Payload.EMPTY);
  }

  public Trace send(String host, PacketHeaders headers, Payload payload) {
    SwitchPort at = host(host).attachment();
    Walk w = new Walk(payload);
    if (live(at)) {
      w.queue.add(new Copy(at.dpid(), at.port(), headers, 0));
    }
    return w.run();
  }

  /**
   * The controller sends a frame out of a switch port (a packet-out with one output action): it
   * crosses the port's link, or reaches the hosts there, without passing the switch's tables.
   */
  public Trace packetOut(long dpid, long port, PacketHeaders headers, Payload payload) {
    switchAt(dpid);
    Walk w = new Walk(payload);
    w.leave(new SwitchPort(dpid, port), headers, 0);
    return w.run();
  }

  private record Copy(long dpid, long inPort, PacketHeaders headers, int hops) {}

  /** One packet's trip: a queue of copies entering switches. */
  private final class Walk {
    final Payload payload;
    final ArrayDeque<Copy> queue = new ArrayDeque<>();
    final List<Trace.Delivery> deliveries = new ArrayList<>();
    final List<Trace.PacketIn> packetIns = new ArrayList<>();
    final List<SwitchPort> lost = new ArrayList<>();
    boolean loop;

    Walk(Payload payload) {
      this.payload = payload;
    }

    Trace run() {
      int lookups = 0;
      while (!queue.isEmpty()) {
        Copy c = queue.poll();
        if (++lookups > MAX_LOOKUPS) {
          loop = true;
          break;
        }
        Forwarding f = switchAt(c.dpid()).process(c.inPort(), c.headers());
        for (Egress e : f.egresses()) {
          if (e.port() == OfPort.CONTROLLER) {
            packetIns.add(new Trace.PacketIn(c.dpid(), c.inPort(), e.headers(), payload));
          } else if (e.port() != OfPort.LOCAL) {
            leave(new SwitchPort(c.dpid(), e.port()), e.headers(), c.hops());
          }
        }
      }
      return new Trace(deliveries, packetIns, lost, loop);
    }

    /** A copy leaves by a physical port: over its link, to its hosts, or lost. */
    void leave(SwitchPort out, PacketHeaders h, int hops) {
      if (!live(out)) {
        lost.add(out);
        return;
      }
      Optional<Link> link = wiring.linkAt(out);
      if (link.isPresent()) {
        if (hops >= MAX_HOPS) {
          loop = true;
          return;
        }
        SwitchPort in = link.get().peer(out);
        queue.add(new Copy(in.dpid(), in.port(), h, hops + 1));
        return;
      }
      List<String> names = hostsAt.getOrDefault(out, List.of());
      if (names.isEmpty()) {
        lost.add(out);
      }
      names.forEach(n -> deliveries.add(new Trace.Delivery(n, h, payload, hops)));
    }
  }
}
