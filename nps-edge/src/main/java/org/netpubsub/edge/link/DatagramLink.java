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
    return of(socket, emulation, auth.secure() ? (b, o, n, to) -> auth.seal(b, o, n) : null);
  }

  /**
   * Writes a datagram's tag after its {@code len} bytes (it has {@link DatagramAuth#TAG} bytes of
   * room there) under the key that fits its destination; returns the sealed length.
   */
  @FunctionalInterface
  interface Sealer {
    int seal(byte[] buf, int off, int len, InetSocketAddress to);
  }

  /** As above, every datagram sealed by {@code sealer} first (null: none, insecure). */
  static DatagramLink of(DatagramSocket socket, WanEmulation emulation, Sealer sealer) {
    DatagramLink raw = of(socket, emulation);
    return sealer != null ? new SealingLink(raw, sealer) : raw;
  }
}
