package org.netpubsub.edge.broker;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * Where the datagrams of one topic go: one per target ({@code spray}: each member edge; {@code
 * network}: the one address the network controller gave). {@code version} is the coordinator's
 * change counter when it computed the route.
 */
public record Route(List<InetSocketAddress> targets, long version) {
  public Route {
    targets = List.copyOf(targets);
  }
}
