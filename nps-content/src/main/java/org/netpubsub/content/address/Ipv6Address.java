package org.netpubsub.content.address;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * A 128-bit IPv6 address as two longs (network order: {@code high} holds the first 64 bits). {@link
 * #parse} reads every RFC 4291 text form; {@link #toString} writes RFC 5952 (as {@code inet_ntop}
 * and therefore {@code ovs-ofctl} do, except for embedded IPv4 forms): the project's one IPv6
 * formatter ({@link #format} for a JDK address).
 */
public record Ipv6Address(long high, long low) implements Comparable<Ipv6Address> {
  public static final Ipv6Address ZERO = new Ipv6Address(0, 0);
  public static final Ipv6Address ALL_ONES = new Ipv6Address(-1L, -1L);

  // equals and hashCode as a record's, written out: the generated ones go through method handles,
  // which the JIT leaves un-inlined inside the matches that switch tables hash.
  @Override
  public boolean equals(Object o) {
    return this == o || o instanceof Ipv6Address a && high == a.high && low == a.low;
  }

  @Override
  public int hashCode() {
    return 31 * Long.hashCode(high) + Long.hashCode(low);
  }

  // one object per prefix length: masks are shared, so matches compare them by identity
  private static final Ipv6Address[] PREFIX_MASKS = new Ipv6Address[129];

  static {
    for (int length = 0; length <= 128; length++) {
      PREFIX_MASKS[length] = newPrefixMask(length);
    }
  }

  /** The contiguous mask of {@code length} leading one bits, 0 &le; length &le; 128. */
  public static Ipv6Address prefixMask(int length) {
    if (length < 0 || length > 128) {
      throw new IllegalArgumentException("IPv6 prefix length must be in [0, 128]: " + length);
    }
    return PREFIX_MASKS[length];
  }

  private static Ipv6Address newPrefixMask(int length) {
    long high = length == 0 ? 0 : length >= 64 ? -1L : -1L << (64 - length);
    long low = length <= 64 ? 0 : length == 128 ? -1L : -1L << (128 - length);
    return new Ipv6Address(high, low);
  }

  /** Builds an address from its eight 16-bit groups. */
  public static Ipv6Address ofGroups(int... groups) {
    if (groups.length != 8) {
      throw new IllegalArgumentException("an IPv6 address has 8 groups, not " + groups.length);
    }
    long high = 0;
    long low = 0;
    for (int i = 0; i < 8; i++) {
      if (groups[i] < 0 || groups[i] > 0xffff) {
        throw new IllegalArgumentException("IPv6 group out of range: " + groups[i]);
      }
      if (i < 4) {
        high = high << 16 | groups[i];
      } else {
        low = low << 16 | groups[i];
      }
    }
    return new Ipv6Address(high, low);
  }

  /** The address of 16 bytes in network order. */
  public static Ipv6Address of(byte[] bytes) {
    if (bytes.length != 16) {
      throw new IllegalArgumentException("an IPv6 address is 16 bytes, not " + bytes.length);
    }
    long high = 0;
    long low = 0;
    for (int i = 0; i < 8; i++) {
      high = high << 8 | (bytes[i] & 0xff);
      low = low << 8 | (bytes[8 + i] & 0xff);
    }
    return new Ipv6Address(high, low);
  }

  /** The 16 bytes in network order. */
  public byte[] bytes() {
    byte[] b = new byte[16];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (high >>> (56 - 8 * i));
      b[8 + i] = (byte) (low >>> (56 - 8 * i));
    }
    return b;
  }

  /** The JDK's form of this address (no name lookup). */
  public Inet6Address toInet6Address() {
    try {
      return (Inet6Address) InetAddress.getByAddress(bytes());
    } catch (UnknownHostException e) {
      throw new AssertionError("16 bytes are always an IPv6 address", e);
    }
  }

  /** A JDK IPv6 address in RFC 5952 form ({@link #toString}), without its scope. */
  public static String format(Inet6Address address) {
    return of(address.getAddress()).toString();
  }

  /**
   * A JDK IP address as text the JDK reads back to the same address, where the JDK's {@code
   * getHostAddress} wrote it: IPv6 by {@link #format}, followed by its zone if it has one ({@code
   * %eth0}, {@code %2}; RFC 4007 section 11: a link-local address bound on this host needs it);
   * IPv4 dotted, its one form.
   */
  public static String formatWithZone(InetAddress address) {
    if (!(address instanceof Inet6Address v6)) {
      return address.getHostAddress();
    }
    String text = format(v6);
    if (v6.getScopedInterface() != null) {
      return text + "%" + v6.getScopedInterface().getName();
    }
    return v6.getScopeId() != 0 ? text + "%" + v6.getScopeId() : text;
  }

  /** Parses an IPv6 address in any RFC 4291 text form ({@code ff0e::1}, {@code ::ffff:1.2.3.4}). */
  public static Ipv6Address parse(String text) {
    int[] groups = new int[8];
    String s = text.trim();
    int doubleColon = s.indexOf("::");
    if (doubleColon >= 0 && s.indexOf("::", doubleColon + 1) >= 0) {
      throw bad(text, "more than one '::'");
    }
    String head = doubleColon >= 0 ? s.substring(0, doubleColon) : s;
    String tail = doubleColon >= 0 ? s.substring(doubleColon + 2) : "";
    int[] headGroups = parseGroups(text, head, doubleColon < 0);
    int[] tailGroups = parseGroups(text, tail, true);
    int n = headGroups.length + tailGroups.length;
    if (doubleColon < 0 ? n != 8 : n > 7) {
      throw bad(text, "wrong number of groups");
    }
    System.arraycopy(headGroups, 0, groups, 0, headGroups.length);
    System.arraycopy(tailGroups, 0, groups, 8 - tailGroups.length, tailGroups.length);
    return ofGroups(groups);
  }

  private static int[] parseGroups(String text, String part, boolean mayEndInIpv4) {
    if (part.isEmpty()) {
      return new int[0];
    }
    String[] pieces = part.split(":", -1);
    boolean ipv4 = mayEndInIpv4 && pieces[pieces.length - 1].contains(".");
    int[] out = new int[pieces.length + (ipv4 ? 1 : 0)];
    for (int i = 0; i < pieces.length; i++) {
      String piece = pieces[i];
      if (ipv4 && i == pieces.length - 1) {
        int v4 = parseIpv4(text, piece);
        out[i] = v4 >>> 16;
        out[i + 1] = v4 & 0xffff;
      } else {
        if (piece.isEmpty() || piece.length() > 4) {
          throw bad(text, "bad group '" + piece + "'");
        }
        try {
          out[i] = Integer.parseInt(piece, 16);
        } catch (NumberFormatException e) {
          throw bad(text, "bad group '" + piece + "'");
        }
      }
    }
    return out;
  }

  private static int parseIpv4(String text, String dotted) {
    String[] octets = dotted.split("\\.", -1);
    if (octets.length != 4) {
      throw bad(text, "bad embedded IPv4 address");
    }
    int v = 0;
    for (String octet : octets) {
      if (octet.isEmpty() || octet.length() > 3 || !octet.chars().allMatch(Character::isDigit)) {
        throw bad(text, "bad embedded IPv4 address");
      }
      int o = Integer.parseInt(octet);
      if (o > 255) {
        throw bad(text, "bad embedded IPv4 address");
      }
      v = v << 8 | o;
    }
    return v;
  }

  private static IllegalArgumentException bad(String text, String why) {
    return new IllegalArgumentException("not an IPv6 address: '" + text + "' (" + why + ")");
  }

  /** The 16-bit group {@code i}, 0 &le; i &lt; 8. */
  public int group(int i) {
    long word = i < 4 ? high : low;
    return (int) (word >>> (16 * (3 - (i & 3)))) & 0xffff;
  }

  public Ipv6Address and(Ipv6Address o) {
    return new Ipv6Address(high & o.high, low & o.low);
  }

  public Ipv6Address or(Ipv6Address o) {
    return new Ipv6Address(high | o.high, low | o.low);
  }

  public Ipv6Address xor(Ipv6Address o) {
    return new Ipv6Address(high ^ o.high, low ^ o.low);
  }

  public Ipv6Address not() {
    return new Ipv6Address(~high, ~low);
  }

  public boolean isZero() {
    return high == 0 && low == 0;
  }

  /** The prefix length if this is a contiguous mask (leading ones, then zeros), else -1. */
  public int prefixLength() {
    int ones = Long.bitCount(high) + Long.bitCount(low);
    return equals(prefixMask(ones)) ? ones : -1;
  }

  @Override
  public int compareTo(Ipv6Address o) {
    int c = Long.compareUnsigned(high, o.high);
    return c != 0 ? c : Long.compareUnsigned(low, o.low);
  }

  /** RFC 5952: lower case, the longest run (&ge; 2) of zero groups, the first on a tie, is "::". */
  @Override
  public String toString() {
    int bestStart = -1;
    int bestLength = 1;
    for (int i = 0; i < 8; ) {
      if (group(i) != 0) {
        i++;
        continue;
      }
      int j = i;
      while (j < 8 && group(j) == 0) {
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
      sb.append(Integer.toHexString(group(i)));
    }
    return sb.toString();
  }
}
