package org.netpubsub.network.topology;

import java.util.HexFormat;

/** A 48-bit Ethernet (MAC) address, held in the low bits of a long. */
public record MacAddress(long value) implements Comparable<MacAddress> {
  public static final MacAddress ZERO = new MacAddress(0);

  public MacAddress {
    if ((value & ~0xffff_ffff_ffffL) != 0) {
      throw new IllegalArgumentException("a MAC address has 48 bits: " + Long.toHexString(value));
    }
  }

  /** Parses {@code 0a:1b:2c:3d:4e:5f} (colons or dashes). */
  public static MacAddress parse(String text) {
    String[] parts = text.trim().split("[:-]");
    if (parts.length != 6) {
      throw new IllegalArgumentException("not a MAC address: '" + text + "'");
    }
    long v = 0;
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 2 || !HexFormat.isHexDigit(p.charAt(0))) {
        throw new IllegalArgumentException("not a MAC address: '" + text + "'");
      }
      try {
        v = v << 8 | Integer.parseInt(p, 16);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("not a MAC address: '" + text + "'", e);
      }
    }
    return new MacAddress(v);
  }

  /** The address in the first six bytes of {@code b} from {@code offset}. */
  public static MacAddress read(byte[] b, int offset) {
    long v = 0;
    for (int i = 0; i < 6; i++) {
      v = v << 8 | (b[offset + i] & 0xff);
    }
    return new MacAddress(v);
  }

  /** Writes the six bytes at {@code offset}. */
  public void write(byte[] b, int offset) {
    for (int i = 0; i < 6; i++) {
      b[offset + i] = (byte) (value >>> (8 * (5 - i)));
    }
  }

  /** True for group (multicast and broadcast) addresses: the low bit of the first byte. */
  public boolean isMulticast() {
    return (value & 0x0100_0000_0000L) != 0;
  }

  @Override
  public int compareTo(MacAddress o) {
    return Long.compare(value, o.value);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(17);
    for (int i = 5; i >= 0; i--) {
      sb.append(String.format("%02x", (value >>> (8 * i)) & 0xff));
      if (i > 0) {
        sb.append(':');
      }
    }
    return sb.toString();
  }
}
