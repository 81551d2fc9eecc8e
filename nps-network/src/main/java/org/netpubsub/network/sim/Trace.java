package org.netpubsub.network.sim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.netpubsub.network.openflow.PacketHeaders;
import org.netpubsub.network.topology.SwitchPort;

/**
 * Where one packet went through the simulated network: the copies hosts received (with the headers
 * the switches rewrote), the copies punted to the controller, the ports where copies were lost (a
 * down link or port, an edge port without a host), and whether some copy crossed more than {@link
 * SimulatedNetwork#MAX_HOPS} links (a forwarding loop; such copies are dropped). Lists are sorted,
 * so equal trips compare equal.
 */
public record Trace(
    List<Delivery> deliveries, List<PacketIn> packetIns, List<SwitchPort> lostAt, boolean loop) {

  /** A copy received by a host after crossing {@code links} switch-to-switch links. */
  public record Delivery(String host, PacketHeaders headers, Payload payload, int links) {}

  /** A copy sent to the controller by switch {@code dpid}, which received it on {@code inPort}. */
  public record PacketIn(long dpid, long inPort, PacketHeaders headers, Payload payload) {}

  private static final Comparator<Delivery> DELIVERY_ORDER =
      Comparator.comparing(Delivery::host)
          .thenComparing(Delivery::headers)
          .thenComparingInt(Delivery::links);
  private static final Comparator<PacketIn> PACKET_IN_ORDER =
      Comparator.comparing(PacketIn::dpid, Long::compareUnsigned)
          .thenComparingLong(PacketIn::inPort)
          .thenComparing(PacketIn::headers);

  public Trace {
    deliveries = sorted(deliveries, DELIVERY_ORDER);
    packetIns = sorted(packetIns, PACKET_IN_ORDER);
    lostAt = sorted(lostAt, Comparator.naturalOrder());
  }

  private static <T> List<T> sorted(List<T> list, Comparator<? super T> order) {
    List<T> copy = new ArrayList<>(list);
    copy.sort(order);
    return List.copyOf(copy);
  }

  /** How many copies each host received. */
  public Map<String, Integer> copiesPerHost() {
    Map<String, Integer> out = new TreeMap<>();
    deliveries.forEach(d -> out.merge(d.host(), 1, Integer::sum));
    return out;
  }

  /** The copies one host received. */
  public List<Delivery> deliveredTo(String host) {
    return deliveries.stream().filter(d -> d.host().equals(host)).toList();
  }

  /** True if exactly one copy arrived, at {@code host}, and nothing looped. */
  public boolean reachesOnly(String host) {
    return !loop && deliveries.size() == 1 && deliveries.get(0).host().equals(host);
  }
}
