package org.netpubsub.edge.link;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/** The receive loop every edge component runs on its datagram socket. */
public final class Datagrams {
  /** The largest UDP payload, so that no datagram is ever cut short. */
  private static final int MAX = 65_535;

  private Datagrams() {}

  /**
   * Checks a datagram's authentication: its length without the tag, or -1 to refuse it. {@code
   * packet} is the datagram as received, for where it came from (an overlay edge verifies another
   * edge's direct datagrams under that edge's key); ask it only when needed: {@link
   * DatagramPacket#getSocketAddress} makes a new address each time.
   */
  @FunctionalInterface
  public interface Opener {
    int open(byte[] buf, int off, int len, DatagramPacket packet);
  }

  /** {@link #receiveUntil(DatagramSocket, BooleanSupplier, Logger, Opener, Runnable, Consumer)}. */
  public static void receiveUntil(
      DatagramSocket socket,
      BooleanSupplier stopped,
      Logger log,
      DatagramAuth auth,
      Runnable rejected,
      Consumer<DatagramPacket> handle) {
    receiveUntil(socket, stopped, log, (b, o, n, f) -> auth.open(b, o, n), rejected, handle);
  }

  /**
   * Receives datagrams until {@code stopped}. Each is checked with {@code opener} first: one whose
   * tag does not verify goes to {@code rejected} (to be counted) and nowhere else, so no state
   * changes on it. An authentic one goes to {@code handle} with the packet's length cut to the
   * datagram without its tag (the tag stays in the buffer right after it, for a relay to forward as
   * is). The packet and its buffer are reused: the handler must be done with them when it returns.
   * A failed receive while running is logged and the loop goes on; closing the socket ends it.
   */
  public static void receiveUntil(
      DatagramSocket socket,
      BooleanSupplier stopped,
      Logger log,
      Opener opener,
      Runnable rejected,
      Consumer<DatagramPacket> handle) {
    byte[] buf = new byte[MAX];
    DatagramPacket p = new DatagramPacket(buf, buf.length);
    while (!stopped.getAsBoolean()) {
      try {
        p.setLength(buf.length);
        socket.receive(p);
      } catch (IOException e) {
        if (!stopped.getAsBoolean()) {
          log.log(Level.WARNING, "receive", e);
        }
        continue;
      }
      deliver(p, opener, rejected, handle);
    }
  }

  /**
   * What {@link #receiveUntil} does with one received datagram: checked with {@code opener}; a
   * refused one goes to {@code rejected} only, an authentic one to {@code handle} with the packet's
   * length cut to the datagram without its tag. Also for measuring a receiver's per-datagram work
   * without the socket (docs/results/overlay-relay-auth.md, "Stop 42").
   */
  public static void deliver(
      DatagramPacket p, Opener opener, Runnable rejected, Consumer<DatagramPacket> handle) {
    int body = opener.open(p.getData(), p.getOffset(), p.getLength(), p);
    if (body < 0) {
      rejected.run();
      return;
    }
    p.setLength(body);
    handle.accept(p);
  }
}
