package org.netpubsub.network.discovery;

import java.util.List;
import java.util.Optional;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;
import org.netpubsub.network.topology.TopologyChange;
import org.netpubsub.network.topology.TopologyChange.HostAdded;
import org.netpubsub.network.topology.TopologyChange.HostMoved;

/**
 * Host learning from the IPv6 neighbour discovery the switches punt to the controller, and the
 * advertisements the controller answers solicitations with (proxy ND). A solicitation teaches its
 * source (with the source link-layer option, else the Ethernet source); duplicate address detection
 * (source ::) teaches the tentative target; an advertisement teaches its target. Hosts are learned
 * only at edge ports, so ND relayed over a switch-to-switch link never moves a host. The last
 * message wins when an address shows up elsewhere. A port holds at most {@link #MAX_HOSTS_PER_PORT}
 * hosts: ND from yet another address there teaches nothing (issue 27: a host soliciting from
 * endless spoofed sources would otherwise grow the topology, and every host costs routes); the
 * refusals are counted in a {@link HostRefusals}.
 */
public final class Ipv6NeighborDiscovery {
  /** Hosts one switch port may carry, learned or registered (the REST API's cap too). */
  public static final int MAX_HOSTS_PER_PORT = 64;

  private Ipv6NeighborDiscovery() {}

  /** The host an ND message announces when it enters at {@code at}; empty if it announces none. */
  public static Optional<Host> sender(NdMessage m, SwitchPort at) {
    Ipv6Address address;
    MacAddress mac;
    if (m.kind() == NdMessage.Kind.ADVERTISEMENT) {
      address = m.target();
      mac = m.linkLayer().orElse(m.ethSrc());
    } else if (m.isDad()) {
      address = m.target();
      mac = m.ethSrc();
    } else {
      address = m.src();
      mac = m.linkLayer().orElse(m.ethSrc());
    }
    if (address.isZero() || NdMessage.isMulticast(address) || mac.isMulticast()) {
      return Optional.empty();
    }
    return Optional.of(new Host(address, mac, at));
  }

  /**
   * The change an ND frame punted from {@code inPort} of {@code dpid} makes to the topology's
   * hosts: a new host, a moved one, or nothing (malformed frame, not an edge port, nothing new).
   */
  public static List<TopologyChange> learn(Topology t, long dpid, long inPort, byte[] frame) {
    return learn(t, dpid, inPort, frame, null);
  }

  /**
   * {@link #learn(Topology, long, long, byte[])}, counting (and logging, rate-limited) in {@code
   * refusals} each host not learned because its port is full; null: not counted.
   */
  public static List<TopologyChange> learn(
      Topology t, long dpid, long inPort, byte[] frame, HostRefusals refusals) {
    if (!SwitchPort.isPhysical(inPort)) {
      return List.of();
    }
    SwitchPort at = new SwitchPort(dpid, inPort);
    Optional<NdMessage> m = NdCodec.decode(frame).toOptional();
    if (m.isEmpty() || !t.isEdgePort(at)) {
      return List.of();
    }
    Optional<Host> h = sender(m.get(), at);
    if (h.isEmpty()) {
      return List.of();
    }
    Optional<Host> known = t.host(h.get().address());
    if (known.map(k -> !k.attachment().equals(at)).orElse(true)
        && t.hostsAt(at).size() >= MAX_HOSTS_PER_PORT) {
      if (refusals != null) { // a new host at a full port (added or moved there)
        refusals.refused(HostRefusals.Reason.of(false, known.isPresent()), at, h.get().address());
      }
      return List.of();
    }
    if (known.isEmpty()) {
      return List.of(new HostAdded(h.get()));
    }
    return known.get().equals(h.get()) ? List.of() : List.of(new HostMoved(known.get(), h.get()));
  }

  /**
   * The advertisement answering a solicitation for a known host, on the host's behalf: from the
   * host's MAC and address to the solicitor, solicited and override set, with the target link-layer
   * option. Empty for DAD (the owner defends its address itself), unknown targets, and hosts
   * soliciting their own address.
   */
  public static Optional<NdMessage> answer(Topology t, NdMessage solicitation) {
    if (solicitation.kind() != NdMessage.Kind.SOLICITATION || solicitation.isDad()) {
      return Optional.empty();
    }
    Optional<Host> target = t.host(solicitation.target());
    if (target.isEmpty() || target.get().address().equals(solicitation.src())) {
      return Optional.empty();
    }
    MacAddress to = solicitation.linkLayer().orElse(solicitation.ethSrc());
    return Optional.of(advertisement(target.get(), to, solicitation.src()));
  }

  /** A solicited advertisement of {@code host} sent to {@code mac}/{@code address}. */
  public static NdMessage advertisement(Host host, MacAddress mac, Ipv6Address address) {
    return new NdMessage(
        NdMessage.Kind.ADVERTISEMENT,
        host.mac(),
        mac,
        host.address(),
        address,
        host.address(),
        Optional.of(host.mac()),
        false,
        true,
        true);
  }

  /** {@link #answer} for a punted frame, as bytes ready for a packet-out. */
  public static Optional<byte[]> answer(Topology t, byte[] frame) {
    return NdCodec.decode(frame).toOptional().flatMap(m -> answer(t, m)).map(NdCodec::encode);
  }
}
