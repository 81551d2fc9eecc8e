package org.netpubsub.controller.nbi.apps;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.netpubsub.network.openflow.OfPort;

/**
 * The forwarding app of the EMD measurements ("simple", after Ryu's simple_switch): learns on which
 * port each IPv6 source sits, per switch; a packet for a known destination gets a flow for that
 * destination and is sent on, one for an unknown destination is flooded. Our switches match no MAC
 * fields, so it learns IPv6 addresses, which on one link is the same thing; frames that are not
 * IPv6 are none of its business.
 */
public final class LearningSwitchApp implements ControllerApp {
  /** Seconds a learned flow lives without traffic. */
  static final int IDLE_TIMEOUT = 60;

  static final int PRIORITY = SwitchLayout.NORTHBOUND_PRIORITY;

  private final String name;
  private final List<NbiTopic> topics;
  private final Map<Long, Map<Ipv6Address, Long>> ports = new HashMap<>();

  /** Sees every IPv6 packet-in. */
  public LearningSwitchApp() {
    this("simple", List.of(NbiTopic.parse("eth_type=0x86dd")));
  }

  public LearningSwitchApp(String name, List<NbiTopic> topics) {
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
  public void onPacketIn(PacketInView in, AppContext bus) {
    Optional<Ipv6Address> src = in.headers().ipv6Src();
    Optional<Ipv6Address> dst = in.headers().ipv6Dst();
    if (dst.isEmpty()) {
      return; // not IPv6 (LLDP on a broadcast bus): flooding a probe would fake links, as in Ryu
    }
    Map<Ipv6Address, Long> known = ports.computeIfAbsent(in.dpid(), d -> new HashMap<>());
    src.ifPresent(a -> known.put(a, in.inPort()));
    Long out = dst.map(known::get).orElse(null);
    if (out == null || out == in.inPort()) {
      bus.packetOut(in, in.dpid(), OfPort.FLOOD, in.data());
      return;
    }
    FlowEntry flow =
        FlowEntry.builder()
            .priority(PRIORITY)
            .match(Match.builder().ipv6().ipv6Dst(MaskedIpv6.exact(dst.get())).build())
            .apply(Action.output(out))
            .idleTimeout(IDLE_TIMEOUT)
            .build();
    if (bus.flowMod(in.dpid(), FlowMod.add(flow)).accepted()) {
      bus.packetOut(in, in.dpid(), out, in.data());
    }
  }
}
