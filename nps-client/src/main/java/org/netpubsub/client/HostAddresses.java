package org.netpubsub.client;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.DatagramSocket;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.netpubsub.content.address.Ipv6Address;

/**
 * The host's side of addressing, from the operating system: detecting the data address ({@link
 * HostAddressSelector}) and finding the interface that holds it, through which multicast leaves.
 */
public final class HostAddresses {
  private static final System.Logger LOG = System.getLogger(HostAddresses.class.getName());

  private HostAddresses() {}

  /**
   * The host's data address: the unique global IPv6 address on an interface other than the one that
   * routes to {@code controller}; when there is none or several, the source address the kernel uses
   * towards the controller ({@link HostAddressSelector}).
   *
   * @throws IllegalArgumentException when neither rule gives one (the message lists the candidates)
   */
  public static Inet6Address detect(URI controller) {
    Optional<InetAddress> source = sourceTowards(controller);
    Optional<String> towardsController = source.flatMap(HostAddresses::interfaceHolding);
    Optional<Inet6Address> routeSource =
        source.filter(Inet6Address.class::isInstance).map(a -> plain((Inet6Address) a));
    List<HostAddressSelector.Candidate> candidates = new ArrayList<>();
    try {
      for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        for (InetAddress a : Collections.list(nif.getInetAddresses())) {
          if (a instanceof Inet6Address v6) {
            candidates.add(
                new HostAddressSelector.Candidate(
                    nif.getName(), plain(v6), nif.isUp(), nif.isLoopback()));
          }
        }
      }
    } catch (SocketException e) {
      throw new IllegalArgumentException(
          "cannot list the network interfaces (" + e.getMessage() + "); give --host");
    }
    HostAddressSelector.Candidate chosen =
        HostAddressSelector.select(candidates, towardsController, routeSource);
    LOG.log(
        Level.INFO,
        "host address {0} on {1} (the controller is reached through {2})",
        Ipv6Address.format(chosen.address()),
        chosen.interfaceName(),
        towardsController.orElse("an unknown interface"));
    return chosen.address();
  }

  /**
   * The interface holding {@code host}: where datagrams from it leave, multicast included.
   *
   * @throws IllegalArgumentException when no interface holds the address
   */
  public static NetworkInterface interfaceOf(Inet6Address host) {
    try {
      NetworkInterface nif = NetworkInterface.getByInetAddress(host);
      if (nif != null) {
        return nif;
      }
    } catch (SocketException e) {
      throw new IllegalArgumentException(
          "cannot find the interface of " + Ipv6Address.format(host) + ": " + e.getMessage());
    }
    throw new IllegalArgumentException(
        "no interface of this host has the address " + Ipv6Address.format(host));
  }

  /**
   * The source address the kernel picks towards the controller (its route and RFC 6724 source
   * selection), found by a connected socket; empty when there is no route.
   */
  static Optional<InetAddress> sourceTowards(URI controller) {
    String host = controller.getHost();
    if (host == null) {
      return Optional.empty();
    }
    host = host.replace("[", "").replace("]", "");
    try (DatagramSocket probe = new DatagramSocket()) {
      // connect() on UDP sends nothing; it only asks the routing table for a source address.
      probe.connect(new InetSocketAddress(InetAddress.getByName(host), 9));
      return Optional.ofNullable(probe.getLocalAddress());
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.DEBUG, "no route to the controller " + host, e);
      return Optional.empty();
    }
  }

  private static Optional<String> interfaceHolding(InetAddress address) {
    try {
      return Optional.ofNullable(NetworkInterface.getByInetAddress(address))
          .map(NetworkInterface::getName);
    } catch (SocketException e) {
      return Optional.empty();
    }
  }

  /** The address without a scope id, as the controller writes it. */
  private static Inet6Address plain(Inet6Address a) {
    try {
      return (Inet6Address) InetAddress.getByAddress(a.getAddress());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
