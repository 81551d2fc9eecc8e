package org.netpubsub.content.event;

import java.nio.ByteBuffer;

/**
 * Unsigned LEB128 varints (7 bits per byte, least significant group first, high bit = more), as in
 * Protocol Buffers: 1 byte up to 127, at most 10 bytes for 64 bits.
 */
final class Varint {
  static final int MAX_BYTES = 10;

  private Varint() {}

  /** Bytes needed for {@code value} read as unsigned. */
  static int size(long value) {
    return (64 - Long.numberOfLeadingZeros(value | 1) + 6) / 7;
  }

  static void write(long value, ByteBuffer out) {
    while ((value & ~0x7FL) != 0) {
      out.put((byte) ((value & 0x7F) | 0x80));
      value >>>= 7;
    }
    out.put((byte) value);
  }
}
