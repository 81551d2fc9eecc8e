package org.netpubsub.client;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Announces a host by making its kernel solicit a neighbour: one 1-byte UDP datagram from the host
 * address to an unused address of its /64 ({@code prefix::fffe}, port 9, "discard"). The kernel
 * sends a neighbour solicitation with the host address as source before the datagram can leave; the
 * controller learns the host from it. The datagram itself goes nowhere.
 */
public final class NeighbourDiscoveryAnnouncer implements HostAnnouncer {
  /** The discard port: nothing answers there even if the target existed. */
  public static final int DISCARD_PORT = 9;

  private static final System.Logger LOG =
      System.getLogger(NeighbourDiscoveryAnnouncer.class.getName());

  @Override
  public void announce(Inet6Address host) {
    if (host.isLinkLocalAddress() || host.isLoopbackAddress() || host.isMulticastAddress()) {
      LOG.log(Level.DEBUG, "not announcing {0}: not a global unicast address", host);
      return;
    }
    Inet6Address target = target(host);
    try (DatagramSocket socket = new DatagramSocket(new InetSocketAddress(host, 0))) {
      socket.send(
          new DatagramPacket(new byte[] {0}, 1, new InetSocketAddress(target, DISCARD_PORT)));
      LOG.log(Level.DEBUG, "announced {0} by a datagram to {1}", host, target);
    } catch (IOException | RuntimeException e) {
      LOG.log(Level.WARNING, "could not announce " + host + " (datagram to " + target + ")", e);
    }
  }

  /** {@code prefix::fffe} of the host's /64, or {@code prefix::fffd} if that is the host. */
  static Inet6Address target(Inet6Address host) {
    byte[] b = host.getAddress();
    for (int i = 8; i < 14; i++) {
      b[i] = 0;
    }
    b[14] = (byte) 0xff;
    b[15] = (byte) 0xfe;
    if (java.util.Arrays.equals(b, host.getAddress())) {
      b[15] = (byte) 0xfd;
    }
    try {
      return (Inet6Address) InetAddress.getByAddress(b);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("16 bytes are an IPv6 address", e);
    }
  }
}
