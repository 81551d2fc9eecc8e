package org.netpubsub.content.address;

/**
 * Unsigned field values packed into an IPv6 destination after {@code ff0e::/16}, most significant
 * bit first, in field order: where Camus routing carries a message's query fields so that OpenFlow
 * switches can match them (docs/compiler.md). A field that does not fit in the 112 bits left is not
 * carried; the next ones that fit still are. Both the controller's tables ({@code
 * QueryAddressLayout}) and the publishers ({@link SchemaAddress}) place fields here, so they agree.
 */
public final class FieldPacking {
  /** The multicast prefix ff0e::/16 (global scope), as PLEROMA's content addresses. */
  public static final int PREFIX_BITS = 16;

  public static final Ipv6Address PREFIX = Ipv6Address.parse("ff0e::");

  private final int[] widths;
  private final int[] offsets; // per field: its first bit in the address (0 = MSB), -1 if left out

  private FieldPacking(int[] widths) {
    this.widths = widths.clone();
    this.offsets = new int[widths.length];
    int next = PREFIX_BITS;
    for (int f = 0; f < widths.length; f++) {
      if (widths[f] < 1 || widths[f] > 64) {
        throw new IllegalArgumentException("field " + f + ": width must be 1..64, " + widths[f]);
      }
      if (next + widths[f] <= 128) {
        offsets[f] = next;
        next += widths[f];
      } else {
        offsets[f] = -1;
      }
    }
  }

  /** The packing of fields of these widths (1..64 bits each), in this order. */
  public static FieldPacking of(int... widths) {
    return new FieldPacking(widths);
  }

  public int size() {
    return widths.length;
  }

  /** Whether field {@code f} travels in the address. */
  public boolean carried(int f) {
    return offsets[f] >= 0;
  }

  /**
   * The first bit of field {@code f} in the 128-bit address (0 is the most significant); -1 if left
   * out.
   */
  public int offset(int f) {
    return offsets[f];
  }

  /**
   * ff0e::/16 and the carried fields' values ({@code values} has one per field; the others are
   * ignored).
   */
  public Ipv6Address address(long[] values) {
    long hi = PREFIX.high();
    long lo = PREFIX.low();
    for (int f = 0; f < offsets.length; f++) {
      if (offsets[f] >= 0) {
        Ipv6Address placed = place(offsets[f], widths[f], values[f]);
        hi |= placed.high();
        lo |= placed.low();
      }
    }
    return new Ipv6Address(hi, lo);
  }

  /**
   * {@code value} (its low {@code width} bits) placed at bit {@code offset} of an address, the rest
   * zero.
   */
  public static Ipv6Address place(int offset, int width, long value) {
    if (width < 64) {
      value &= (1L << width) - 1;
    }
    int end = offset + width; // exclusive; bits [offset, end)
    long hi = 0;
    long lo = 0;
    if (end <= 64) {
      hi = value << (64 - end);
    } else if (offset >= 64) {
      lo = value << (128 - end);
    } else {
      int inLow = end - 64; // bits of value that land in the low word
      hi = value >>> inLow;
      lo = value << (64 - inLow);
    }
    return new Ipv6Address(hi, lo);
  }

  /**
   * The first {@code length} bytes of {@code bytes}, padded with {@code fill}, as a big-endian
   * unsigned value: a string field's value, so that byte order is numeric order.
   */
  public static long bytesValue(byte[] bytes, int length, byte fill) {
    long v = 0;
    for (int i = 0; i < length; i++) {
      v = v << 8 | ((i < bytes.length ? bytes[i] : fill) & 0xff);
    }
    return v;
  }
}
