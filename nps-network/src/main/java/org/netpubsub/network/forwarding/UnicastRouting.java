package org.netpubsub.network.forwarding;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.netpubsub.network.layout.SwitchLayout;
import org.netpubsub.network.openflow.Action;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.MaskedIpv6;
import org.netpubsub.network.openflow.Match;
import org.netpubsub.network.openflow.OfPort;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.topology.Hop;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/**
 * The desired flows of the base forwarding app, per switch, in table {@link #TABLE}: LLDP to the
 * controller ({@link #PRIORITY_LLDP}); neighbour solicitations and advertisements to the controller
 * ({@link #PRIORITY_ND}), which learns hosts and answers for them; and for every known host an
 * exact {@code ipv6_dst} entry ({@link #PRIORITY_UNICAST}) sending packets one hop along the
 * shortest path towards the host's switch, and out of the host's port there. Anything else misses
 * and is dropped. Every entry carries {@link #COOKIE}, so a reconciler can tell the app's entries
 * from other apps'. A pure function of the topology: recompute it when the topology changes (a link
 * down reroutes around it).
 */
public final class UnicastRouting {
  /** The table the app's entries live in. */
  public static final int TABLE = SwitchLayout.TABLE_0;

  /** LLDP (eth_type 0x88cc) to the controller: above everything, so discovery always works. */
  public static final int PRIORITY_LLDP = SwitchLayout.PRIORITY_LLDP;

  /** ICMPv6 types 135 and 136 to the controller: above unicast, so ND is never routed. */
  public static final int PRIORITY_ND = SwitchLayout.PRIORITY_ND;

  /** ipv6_dst=host/128: below ND; content-based (multicast) apps use other priorities. */
  public static final int PRIORITY_UNICAST = SwitchLayout.PRIORITY_UNICAST;

  /** "NPS" and app number 1 (base forwarding), in the high and low bits. */
  public static final long COOKIE = SwitchLayout.BASE_COOKIE;

  /** The ICMPv6 types punted: neighbour solicitation and advertisement. */
  public static final List<Integer> ND_TYPES = List.of(135, 136);

  private UnicastRouting() {}

  /** The table-miss entry of reactive forwarding: below everything. */
  public static final int PRIORITY_MISS = SwitchLayout.PRIORITY_MISS;

  /**
   * The entries of reactive forwarding, where apps on the northbound bus forward what misses (EMD
   * Fig. 10): the control entries plus a table-miss entry sending the whole packet to the
   * controller, on every switch.
   */
  public static SortedMap<Long, List<FlowEntry>> reactiveFlows(Topology t) {
    SortedMap<Long, List<FlowEntry>> out = new TreeMap<>(SwitchPort.DPID_ORDER);
    for (long dpid : t.switches()) {
      List<FlowEntry> flows = new ArrayList<>(controlFlows());
      flows.add(base(PRIORITY_MISS).match(Match.ANY).apply(toController()).build());
      out.put(dpid, List.copyOf(flows));
    }
    return out;
  }

  /** The entries every switch should hold, for every switch of the topology. */
  public static SortedMap<Long, List<FlowEntry>> desiredFlows(Topology t) {
    SortedMap<Long, List<FlowEntry>> out = new TreeMap<>(SwitchPort.DPID_ORDER);
    for (long dpid : t.switches()) {
      out.put(dpid, new ArrayList<>(controlFlows()));
    }
    // One BFS per switch that has hosts, shared by its hosts.
    Map<Long, Map<Long, Hop>> nextHops = new TreeMap<>(SwitchPort.DPID_ORDER);
    for (Host h : t.hosts().values()) {
      long home = h.attachment().dpid();
      Map<Long, Hop> towards = nextHops.computeIfAbsent(home, t::nextHopsTo);
      out.get(home).add(unicast(h, h.attachment().port()));
      towards.forEach((dpid, hop) -> out.get(dpid).add(unicast(h, hop.from().port())));
    }
    out.replaceAll((dpid, flows) -> List.copyOf(flows));
    return out;
  }

  /** The entries that send LLDP and ND to the controller (the same on every switch). */
  public static List<FlowEntry> controlFlows() {
    List<FlowEntry> out = new ArrayList<>();
    out.add(
        base(PRIORITY_LLDP)
            .match(Match.builder().ethType(PacketHeaders.ETH_TYPE_LLDP).build())
            .apply(toController())
            .build());
    for (int type : ND_TYPES) {
      out.add(
          base(PRIORITY_ND)
              .match(Match.builder().icmp6().icmpv6Type(type).build())
              .apply(toController())
              .build());
    }
    return out;
  }

  /** Packets to {@code host} leave by {@code port}. */
  static FlowEntry unicast(Host host, long port) {
    return base(PRIORITY_UNICAST)
        .match(Match.builder().ipv6().ipv6Dst(MaskedIpv6.exact(host.address())).build())
        .apply(Action.output(port))
        .build();
  }

  private static FlowEntry.Builder base(int priority) {
    return FlowEntry.builder().table(TABLE).priority(priority).cookie(COOKIE);
  }

  private static Action toController() {
    return new Action.Output(OfPort.CONTROLLER, Action.Output.NO_BUFFER);
  }
}
