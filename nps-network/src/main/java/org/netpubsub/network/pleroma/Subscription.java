package org.netpubsub.network.pleroma;

import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.DzSet;

/** A subscription DZ(s): the cells it wants, the subscriber's host and UDP port. */
public record Subscription(String id, Ipv6Address host, int udpPort, DzSet cells) {
  public Subscription {
    checkIdAndHost(id, host);
    if (udpPort < 1 || udpPort > 0xffff) {
      throw new IllegalArgumentException("udp port out of range: " + udpPort);
    }
    if (cells == null) {
      throw new IllegalArgumentException("cells are required");
    }
  }

  static void checkIdAndHost(String id, Ipv6Address host) {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("an id is required");
    }
    if (host == null) {
      throw new IllegalArgumentException("a host address is required");
    }
  }
}
