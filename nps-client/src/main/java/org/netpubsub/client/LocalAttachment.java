package org.netpubsub.client;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import org.netpubsub.content.address.Ipv6Address;

/**
 * A host of a local network ({@code nps local}, docs/local.md): its address, and the loopback UDP
 * port of its cable, where its events enter the local switch. {@link #attach} asks the local switch
 * for one: loopback cannot carry multicast content addresses, and a process without root cannot
 * give itself a host address, so the local switch hands both out.
 */
public record LocalAttachment(Inet6Address host, InetSocketAddress cable) {
  private static final int TRIES = 3;
  private static final int WAIT_MS = 1000;

  /**
   * Attaches a host to the local switch at {@code at}: {@code host}, or a new one when null.
   *
   * @throws IllegalArgumentException when the local switch refuses (its reason)
   * @throws IOException when it does not answer
   */
  public static LocalAttachment attach(InetSocketAddress at, Inet6Address host) throws IOException {
    String request = "nps-local attach" + (host == null ? "" : " " + Ipv6Address.format(host));
    try (DatagramChannel ch = DatagramChannel.open(StandardProtocolFamily.INET6)) {
      ch.bind(new InetSocketAddress(at.getAddress(), 0));
      ch.connect(at);
      ByteBuffer in = ByteBuffer.allocate(512);
      for (int i = 0; i < TRIES; i++) {
        ch.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8)));
        in.clear();
        if (receive(ch, in)) {
          in.flip();
          return parse(StandardCharsets.UTF_8.decode(in).toString(), at.getAddress());
        }
      }
    }
    throw new SocketTimeoutException("the local switch at " + at + " does not answer");
  }

  private static boolean receive(DatagramChannel ch, ByteBuffer in) throws IOException {
    // A blocking channel has no receive timeout: wait on the socket adaptor instead.
    ch.socket().setSoTimeout(WAIT_MS);
    java.net.DatagramPacket p = new java.net.DatagramPacket(in.array(), in.capacity());
    try {
      ch.socket().receive(p);
    } catch (SocketTimeoutException e) {
      return false;
    }
    in.position(p.getLength());
    return true;
  }

  /** {@code nps-local host ADDRESS PORT} or {@code nps-local error REASON}. */
  static LocalAttachment parse(String reply, InetAddress loopback) {
    String[] w = reply.strip().split(" ", 4);
    if (w.length >= 3 && w[0].equals("nps-local") && w[1].equals("error")) {
      throw new IllegalArgumentException(
          "the local switch refused: " + reply.strip().substring("nps-local error ".length()));
    }
    if (w.length != 4 || !w[0].equals("nps-local") || !w[1].equals("host")) {
      throw new IllegalArgumentException("unexpected answer of the local switch: " + reply);
    }
    return new LocalAttachment(
        Ipv6Text.parse(w[2]), new InetSocketAddress(loopback, Integer.parseInt(w[3])));
  }

  /** {@code [::1]:PORT} as {@code GET /v1/pubsub} gives it. */
  static InetSocketAddress parseSwitch(String text) {
    int colon = text.lastIndexOf(':');
    if (!text.startsWith("[") || colon < 0 || text.charAt(colon - 1) != ']') {
      throw new IllegalArgumentException("local_switch must be [ADDRESS]:PORT, not " + text);
    }
    try {
      return new InetSocketAddress(
          InetAddress.getByName(text.substring(1, colon - 1)),
          Integer.parseInt(text.substring(colon + 1)));
    } catch (IOException | NumberFormatException e) {
      throw new IllegalArgumentException("local_switch must be [ADDRESS]:PORT, not " + text);
    }
  }
}
