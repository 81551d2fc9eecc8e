package org.netpubsub.edge.coordinator;

import java.util.Objects;
import org.netpubsub.edge.broker.DatagramCodec;

/** A registered edge broker: its name and where its agent receives datagrams. */
public record Edge(String name, String address, int port) {
  public Edge {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(address, "address");
    if (!DatagramCodec.EDGE_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "edge name '" + name + "' must be 1–64 of A-Z a-z 0-9 . _ -");
    }
    if (address.isBlank()) {
      throw new IllegalArgumentException("edge '" + name + "': address must not be empty");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("edge '" + name + "': port out of range: " + port);
    }
  }
}
