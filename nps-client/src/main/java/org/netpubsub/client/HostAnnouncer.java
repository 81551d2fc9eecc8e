package org.netpubsub.client;

import java.net.Inet6Address;

/**
 * Makes a host known to the controller, which learns hosts from their IPv6 neighbour discovery (see
 * {@link NeighbourDiscoveryAnnouncer}). Best effort: it never throws.
 */
@FunctionalInterface
public interface HostAnnouncer {
  void announce(Inet6Address host);
}
