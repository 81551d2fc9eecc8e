package org.netpubsub.client;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** IPv6 address literals parsed without DNS; {@code Ipv6Address.format} writes them (RFC 5952). */
public final class Ipv6Text {
  private Ipv6Text() {}

  /**
   * Parses an IPv6 literal ({@code fd6e:7073:1::3}, brackets allowed); never a name lookup.
   *
   * @throws IllegalArgumentException for anything else, IPv4 included
   */
  public static Inet6Address parse(String text) {
    String s = text.strip();
    if (s.startsWith("[") && s.endsWith("]")) {
      s = s.substring(1, s.length() - 1);
    }
    if (s.isEmpty() || s.indexOf(':') < 0 || !s.matches("[0-9A-Fa-f:.]+")) {
      throw new IllegalArgumentException("not an IPv6 address: '" + text + "'");
    }
    try {
      // A literal with a colon is never looked up: getByName parses it.
      InetAddress a = InetAddress.getByName(s);
      if (a instanceof Inet6Address v6) {
        return v6;
      }
    } catch (UnknownHostException e) {
      // fall through to the error below
    }
    throw new IllegalArgumentException("not an IPv6 address: '" + text + "'");
  }
}
