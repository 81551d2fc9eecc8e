package org.netpubsub.network.openflow;

import java.util.Comparator;

/** One copy of a packet leaving a switch: the port (CONTROLLER for a packet-in) and its headers. */
public record Egress(long port, PacketHeaders headers) implements Comparable<Egress> {
  private static final Comparator<Egress> ORDER =
      Comparator.comparingLong(Egress::port).thenComparing(Egress::headers);

  public Egress {
    if (headers == null) {
      throw new IllegalArgumentException("headers are required");
    }
  }

  @Override
  public int compareTo(Egress o) {
    return ORDER.compare(this, o);
  }

  @Override
  public String toString() {
    return OfPort.name(port) + ":" + headers;
  }
}
