package org.netpubsub.edge.overlay;

import java.net.InetSocketAddress;
import java.util.Objects;

/** An edge broker's entry under a topic: its site and where it receives datagrams. */
public record Endpoint(String site, InetSocketAddress address) {
  public Endpoint {
    ZnodePaths.checkName(site);
    Objects.requireNonNull(address, "address");
  }
}
