package org.netpubsub.network.nbi;

import org.netpubsub.content.address.Ipv6Address;

/**
 * The value of a topic field as up to 128 bits (big-endian, right-aligned: {@code high} holds bits
 * 127..64). One width for every field — a port, an IPv6 address, a 16-byte window — so that
 * constraints compare and hash alike and the classifier's index needs one key type.
 */
public record FieldValue(long high, long low) {
  public static final FieldValue ZERO = new FieldValue(0, 0);

  /** A value of at most 64 bits. */
  public static FieldValue of(long value) {
    return new FieldValue(0, value);
  }

  public static FieldValue of(Ipv6Address address) {
    return new FieldValue(address.high(), address.low());
  }

  /** The value of {@code length} bytes (at most 16) of {@code b} from {@code offset}. */
  public static FieldValue ofBytes(byte[] b, int offset, int length) {
    if (length < 0 || length > 16) {
      throw new IllegalArgumentException("at most 16 bytes fit in a field value: " + length);
    }
    long high = 0;
    long low = 0;
    for (int i = 0; i < length; i++) {
      high = high << 8 | low >>> 56;
      low = low << 8 | (b[offset + i] & 0xff);
    }
    return new FieldValue(high, low);
  }

  /** The mask of the {@code bits} lowest bits, 0 &le; bits &le; 128. */
  public static FieldValue lowBits(int bits) {
    if (bits < 0 || bits > 128) {
      throw new IllegalArgumentException("a field value has at most 128 bits: " + bits);
    }
    long low = bits >= 64 ? -1L : (1L << bits) - 1;
    long high = bits <= 64 ? 0 : bits == 128 ? -1L : (1L << (bits - 64)) - 1;
    return new FieldValue(high, low);
  }

  public FieldValue and(FieldValue o) {
    return new FieldValue(high & o.high, low & o.low);
  }

  public boolean isZero() {
    return high == 0 && low == 0;
  }

  /** True if every bit set here is set in {@code o}. */
  public boolean within(FieldValue o) {
    return (high & ~o.high) == 0 && (low & ~o.low) == 0;
  }

  public int bitCount() {
    return Long.bitCount(high) + Long.bitCount(low);
  }

  public Ipv6Address toIpv6() {
    return new Ipv6Address(high, low);
  }

  /** The lowest {@code length} bytes as {@code 2 * length} lower-case hex digits. */
  public String toHex(int length) {
    StringBuilder sb = new StringBuilder(2 * length);
    for (int i = length - 1; i >= 0; i--) {
      long word = i >= 8 ? high : low;
      int b = (int) (word >>> (8 * (i % 8))) & 0xff;
      sb.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xf, 16));
    }
    return sb.toString();
  }

  @Override
  public String toString() {
    return high == 0 ? "0x" + Long.toHexString(low) : "0x" + toHex(16);
  }
}
