package org.netpubsub.edge.coordinator;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.regex.Pattern;
import org.netpubsub.edge.broker.DatagramCodec;

/** A registered edge broker: its name and where its agent receives datagrams. */
public record Edge(String name, String address, int port) {
  private static final Pattern V4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
  private static final Pattern V6 = Pattern.compile("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

  public Edge {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(address, "address");
    if (!DatagramCodec.EDGE_NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "edge name '" + name + "' must be 1–64 of A-Z a-z 0-9 . _ -");
    }
    if (!isIpLiteral(address)) {
      throw new IllegalArgumentException(
          "edge '" + name + "': address must be an IPv6 or IPv4 address, not '" + address + "'");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("edge '" + name + "': port out of range: " + port);
    }
  }

  /** An address literal (never a name: resolving one would be DNS under the coordinator's lock). */
  static boolean isIpLiteral(String s) {
    if (!V4.matcher(s).matches() && !V6.matcher(s).matches()) {
      return false;
    }
    try {
      InetAddress.getByName(s); // a literal: parsed, not looked up
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
