package org.netpubsub.http;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** An address prefix ({@code fd6e:7073:1::/64}, or one address): the hosts a principal acts for. */
public record HostPrefix(byte[] network, int bits) {
  /** {@code ADDRESS[/BITS]}, IPv6 or IPv4 literal; a clear error otherwise. */
  public static HostPrefix parse(String text) {
    int slash = text.indexOf('/');
    String addr = slash < 0 ? text : text.substring(0, slash);
    byte[] a = literal(addr);
    if (a == null) {
      throw new IllegalArgumentException("not an address prefix: '" + text + "'");
    }
    int bits = a.length * 8;
    if (slash >= 0) {
      try {
        bits = Integer.parseInt(text.substring(slash + 1));
      } catch (NumberFormatException e) {
        bits = -1;
      }
      if (bits < 0 || bits > a.length * 8) {
        throw new IllegalArgumentException("bad prefix length in '" + text + "'");
      }
    }
    return new HostPrefix(a, bits);
  }

  /** The bytes of an IPv6 or IPv4 literal, or null if {@code text} is not one (never a lookup). */
  public static byte[] literal(String text) {
    if (text == null || !(text.contains(":") || text.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}"))) {
      return null;
    }
    try {
      return InetAddress.getByName(text).getAddress();
    } catch (UnknownHostException e) {
      return null;
    }
  }

  /** Whether {@code address} (its bytes) lies inside the prefix. */
  public boolean contains(byte[] address) {
    if (address.length != network.length) {
      return false;
    }
    for (int i = 0; i < bits; i++) {
      int mask = 0x80 >>> (i % 8);
      if ((address[i / 8] & mask) != (network[i / 8] & mask)) {
        return false;
      }
    }
    return true;
  }
}
