package org.netpubsub.network.pleroma;

import org.netpubsub.content.address.Ipv6Address;

/**
 * The rewrite the last switch applies before a subscriber: the event leaves addressed to the host
 * ({@code ipv6_dst}, {@code eth_dst}) and to the subscriber's UDP port, as PLEROMA's last switch
 * rewrites the destination.
 */
public record LastHop(Ipv6Address host, long mac, int udpPort) implements Comparable<LastHop> {
  public LastHop {
    if (host == null) {
      throw new IllegalArgumentException("host address is required");
    }
    if ((mac & ~0xffff_ffff_ffffL) != 0) {
      throw new IllegalArgumentException("a MAC address has 48 bits: " + Long.toHexString(mac));
    }
    if (udpPort < 1 || udpPort > 0xffff) {
      throw new IllegalArgumentException("udp port out of range: " + udpPort);
    }
  }

  @Override
  public int compareTo(LastHop o) {
    int c = host.compareTo(o.host);
    if (c == 0) {
      c = Long.compare(mac, o.mac);
    }
    return c != 0 ? c : Integer.compare(udpPort, o.udpPort);
  }

  @Override
  public String toString() {
    return "[" + host + "]:" + udpPort;
  }
}
