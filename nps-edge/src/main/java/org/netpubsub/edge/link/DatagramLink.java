package org.netpubsub.edge.link;

import java.io.Closeable;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;

/**
 * How overlay brokers send datagrams. The production link is the socket itself; {@link
 * EmulatedLink} (experiments only, docs/overlay.md) adds delay, jitter and loss per destination.
 */
public interface DatagramLink extends Closeable {
  /** Sends {@code len} bytes of {@code data} from {@code off}; the bytes may be reused after. */
  void send(byte[] data, int off, int len, InetSocketAddress to) throws IOException;

  @Override
  default void close() {}

  /** The production path: straight to the socket. */
  static DatagramLink udp(DatagramSocket socket) {
    return (data, off, len, to) -> socket.send(new DatagramPacket(data, off, len, to));
  }

  /** The socket, or the emulation around it when one is configured. */
  static DatagramLink of(DatagramSocket socket, WanEmulation emulation) {
    return emulation == null ? udp(socket) : new EmulatedLink(socket, emulation);
  }

  /** As above, every datagram sealed with {@code auth}'s tag first (unless it is insecure). */
  static DatagramLink of(DatagramSocket socket, WanEmulation emulation, DatagramAuth auth) {
    DatagramLink raw = of(socket, emulation);
    return auth.secure() ? new SealingLink(raw, auth) : raw;
  }
}
