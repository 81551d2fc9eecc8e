package org.netpubsub.client;

import java.net.Inet6Address;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.netpubsub.content.address.Ipv6Address;

/**
 * Picks a host's data address when none is given: the unique global IPv6 address (ULA included) on
 * an up, non-loopback interface other than the one that reaches the controller (on the test bed
 * that is the management interface). When there is no such address or several (a laptop with one
 * network and privacy addresses), the address the kernel uses as source towards the controller, if
 * it is global: the data network is then the controller's. Pure: the caller lists the interfaces
 * and asks the routing table.
 */
public final class HostAddressSelector {
  /** One address of one interface, as the operating system reports it. */
  public record Candidate(
      String interfaceName, Inet6Address address, boolean up, boolean loopback) {}

  private HostAddressSelector() {}

  /** {@link #select(List, Optional, Optional)} without the route's source address. */
  public static Candidate select(List<Candidate> candidates, Optional<String> controllerInterface) {
    return select(candidates, controllerInterface, Optional.empty());
  }

  /**
   * @param controllerInterface the interface that routes to the controller, if known
   * @param routeSource the source address the kernel picks towards the controller, if known
   * @throws IllegalArgumentException when no address or more than one qualifies and the route's
   *     source is not a global address of an up interface, listing them
   */
  public static Candidate select(
      List<Candidate> candidates,
      Optional<String> controllerInterface,
      Optional<Inet6Address> routeSource) {
    List<Candidate> eligible = new ArrayList<>();
    for (Candidate c : candidates) {
      if (usable(c) && !controllerInterface.map(c.interfaceName()::equals).orElse(false)) {
        eligible.add(c);
      }
    }
    if (eligible.size() == 1) {
      return eligible.get(0);
    }
    for (Candidate c : candidates) {
      if (usable(c) && routeSource.map(c.address()::equals).orElse(false)) {
        return c; // the route to the controller decides
      }
    }
    String except =
        controllerInterface
            .map(i -> " other than " + i + " (which reaches the controller)")
            .orElse("");
    if (eligible.isEmpty()) {
      throw new IllegalArgumentException(
          "no global IPv6 address on an interface"
              + except
              + "; give the host address with --host");
    }
    List<String> found = new ArrayList<>();
    for (Candidate c : eligible) {
      found.add(c.interfaceName() + " " + Ipv6Address.format(c.address()));
    }
    throw new IllegalArgumentException(
        "several global IPv6 addresses could be the host's data address ("
            + String.join(", ", found)
            + "); choose one with --host");
  }

  private static boolean usable(Candidate c) {
    return c.up() && !c.loopback() && isGlobal(c.address());
  }

  /** Global unicast in the sense that matters here: not loopback, link-local, multicast, any. */
  static boolean isGlobal(Inet6Address a) {
    return !a.isLoopbackAddress()
        && !a.isLinkLocalAddress()
        && !a.isSiteLocalAddress()
        && !a.isMulticastAddress()
        && !a.isAnyLocalAddress()
        && !a.isIPv4CompatibleAddress();
  }
}
