package org.netpubsub.edge.client;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** IPv6 address literals: parsing without DNS, and the compressed form of RFC 5952. */
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

  /** The compressed form: lower case, leading zeros dropped, the longest run of ≥ 2 zeros as ::. */
  public static String format(Inet6Address address) {
    byte[] b = address.getAddress();
    int[] g = new int[8];
    for (int i = 0; i < 8; i++) {
      g[i] = (b[2 * i] & 0xff) << 8 | b[2 * i + 1] & 0xff;
    }
    int bestStart = -1;
    int bestLength = 1;
    for (int i = 0; i < 8; ) {
      if (g[i] != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && g[j] == 0) {
        j++;
      }
      if (j - i > bestLength) {
        bestStart = i;
        bestLength = j - i;
      }
      i = j;
    }
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        sb.append("::");
        i += bestLength - 1;
        continue;
      }
      if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
        sb.append(':');
      }
      sb.append(Integer.toHexString(g[i]));
    }
    return sb.toString();
  }
}
