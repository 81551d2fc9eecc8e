package org.netpubsub.network.pleroma;

import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.content.index.DzSet;

/** A publisher's advertisement DZ(p): the cells its events will fall in, and its host. */
public record Advertisement(String id, Ipv6Address host, DzSet cells) {
  public Advertisement {
    Subscription.checkIdAndHost(id, host);
    if (cells == null) {
      throw new IllegalArgumentException("cells are required");
    }
  }
}
