package org.netpubsub.content.index;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.netpubsub.content.address.Ipv6Address;

/**
 * A dz as an IPv6 multicast address (PLEROMA §III-A): {@code ff0e::/16} followed by the dz bits,
 * the rest zero, with prefix length 16 + |dz|. An event's dz gives its destination address; a
 * filter's dz gives a CIDR prefix that switches match against it, e.g. dz {@code 110} is {@code
 * ff0e:c000::/19} and covers the event address {@code ff0e:c800::} of dz {@code 110010}.
 */
public final class ContentAddress {
  /** The first two bytes of every content address: multicast, global scope. */
  public static final int PREFIX = 0xff0e;

  private final Dz dz;

  private ContentAddress(Dz dz) {
    this.dz = dz;
  }

  public static ContentAddress of(Dz dz) {
    return new ContentAddress(dz);
  }

  /**
   * The dz in the first {@code prefixLength} bits of {@code address} (16 ≤ prefixLength ≤ 128); the
   * bits after them are ignored, as a switch's mask ignores them.
   *
   * @throws IllegalArgumentException when the address is not in {@code ff0e::/16}
   */
  public static ContentAddress of(Inet6Address address, int prefixLength) {
    return of(address.getAddress(), prefixLength);
  }

  /**
   * Parses {@code ADDRESS/LENGTH}, e.g. {@code ff0e:c000::/19}.
   *
   * @throws IllegalArgumentException on bad syntax or an address outside {@code ff0e::/16}
   */
  public static ContentAddress parse(String text) {
    int slash = text.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException(
          "a content address needs a prefix length, e.g. ff0e:c000::/19: " + text);
    }
    String addr = text.substring(0, slash);
    int prefixLength;
    try {
      prefixLength = Integer.parseInt(text.substring(slash + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad prefix length in " + text, e);
    }
    // Only hex digits and colons: an IPv6 literal, never a name to look up.
    if (!addr.matches("[0-9A-Fa-f:]{2,39}")) {
      throw new IllegalArgumentException("not an IPv6 address: " + addr);
    }
    InetAddress parsed;
    try {
      parsed = InetAddress.getByName(addr);
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("not an IPv6 address: " + addr, e);
    }
    if (!(parsed instanceof Inet6Address)) {
      throw new IllegalArgumentException("not an IPv6 address: " + addr);
    }
    return of(parsed.getAddress(), prefixLength);
  }

  private static ContentAddress of(byte[] b, int prefixLength) {
    if (prefixLength < 16 || prefixLength > 16 + Dz.MAX_LENGTH) {
      throw new IllegalArgumentException(
          "a content address prefix length is 16..128, got " + prefixLength);
    }
    if ((b[0] & 0xff) != PREFIX >>> 8 || (b[1] & 0xff) != (PREFIX & 0xff)) {
      throw new IllegalArgumentException(
          "not a content address (outside ff0e::/16): " + Ipv6Address.of(b) + "/" + prefixLength);
    }
    Ipv6Address a = Ipv6Address.of(b); // the dz is bytes 2..15
    return new ContentAddress(
        Dz.of(a.high() << 16 | a.low() >>> 48, a.low() << 16, prefixLength - 16));
  }

  public Dz dz() {
    return dz;
  }

  /** 16 + |dz|. */
  public int prefixLength() {
    return 16 + dz.length();
  }

  /** The 16 address bytes: ff 0e, the dz bits, zeros. */
  public byte[] bytes() {
    return ipv6().bytes();
  }

  /** The address as a value: ff0e, then the dz's 112 bits. */
  public Ipv6Address ipv6() {
    return new Ipv6Address((long) PREFIX << 48 | dz.hi() >>> 16, dz.hi() << 48 | dz.lo() >>> 16);
  }

  public Inet6Address address() {
    try {
      return (Inet6Address) InetAddress.getByAddress(bytes());
    } catch (UnknownHostException e) {
      throw new IllegalStateException("16 bytes are always an IPv6 address", e);
    }
  }

  /** The address in compressed form (RFC 5952), e.g. {@code ff0e:c800::}. */
  public String addressString() {
    return ipv6().toString();
  }

  /** Whether the prefix of this address contains {@code other}'s: the dz covers. */
  public boolean covers(ContentAddress other) {
    return dz.covers(other.dz);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ContentAddress a && a.dz.equals(dz);
  }

  @Override
  public int hashCode() {
    return dz.hashCode();
  }

  /** CIDR form, e.g. {@code ff0e:c000::/19}. */
  @Override
  public String toString() {
    return addressString() + "/" + prefixLength();
  }
}
