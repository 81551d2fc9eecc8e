package org.netpubsub.client;

import java.net.Inet6Address;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.netpubsub.content.address.Ipv6Address;

/**
 * Picks a host's data address when none is given: the unique global IPv6 address (ULA included) on
 * an up, non-loopback interface other than the one that reaches the controller (on the test bed
 * that is the management interface). Pure: the caller lists the interfaces.
 */
public final class HostAddressSelector {
  /** One address of one interface, as the operating system reports it. */
  public record Candidate(
      String interfaceName, Inet6Address address, boolean up, boolean loopback) {}

  private HostAddressSelector() {}

  /**
   * @param controllerInterface the interface that routes to the controller, if known
   * @throws IllegalArgumentException when no address or more than one qualifies, listing them
   */
  public static Candidate select(List<Candidate> candidates, Optional<String> controllerInterface) {
    List<Candidate> eligible = new ArrayList<>();
    for (Candidate c : candidates) {
      if (c.up()
          && !c.loopback()
          && isGlobal(c.address())
          && !controllerInterface.map(c.interfaceName()::equals).orElse(false)) {
        eligible.add(c);
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
    if (eligible.size() > 1) {
      List<String> found = new ArrayList<>();
      for (Candidate c : eligible) {
        found.add(c.interfaceName() + " " + Ipv6Address.format(c.address()));
      }
      throw new IllegalArgumentException(
          "several global IPv6 addresses could be the host's data address ("
              + String.join(", ", found)
              + "); choose one with --host");
    }
    return eligible.get(0);
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
