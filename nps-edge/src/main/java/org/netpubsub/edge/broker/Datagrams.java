package org.netpubsub.edge.broker;

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
   * Receives datagrams until {@code stopped}, handing each to {@code handle} (the packet and its
   * buffer are reused: the handler must be done with them when it returns). A failed receive while
   * running is logged and the loop goes on; closing the socket ends it.
   */
  public static void receiveUntil(
      DatagramSocket socket, BooleanSupplier stopped, Logger log, Consumer<DatagramPacket> handle) {
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
      handle.accept(p);
    }
  }
}
