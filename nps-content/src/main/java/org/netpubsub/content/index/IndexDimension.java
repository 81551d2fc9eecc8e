package org.netpubsub.content.index;

import java.nio.charset.StandardCharsets;
import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.StringAttribute;

/**
 * One index dimension as the spatial index sees it: values mapped to unsigned offsets {@code 0 ..
 * sizeMinus1}, order-preserving.
 *
 * <p>Int attributes: {@code v − min}. String attributes: the first {@code min(max_length, 8)} UTF-8
 * bytes, zero-padded, read as an unsigned big-endian number, so that byte-wise string order is kept
 * and all strings with a given prefix form one contiguous range.
 */
final class IndexDimension {
  /** String dimensions look at this many leading bytes at most. */
  static final int STRING_BYTES = 8;

  private final Attribute attribute;
  private final long sizeMinus1;
  private final int stringBytes;

  IndexDimension(Attribute attribute) {
    this.attribute = attribute;
    switch (attribute) {
      case IntAttribute i -> {
        this.sizeMinus1 = i.max() - i.min(); // unsigned: up to 2^64 − 1
        this.stringBytes = 0;
      }
      case StringAttribute s -> {
        this.stringBytes = Math.min(s.maxLength(), STRING_BYTES);
        this.sizeMinus1 = stringBytes == STRING_BYTES ? -1L : (1L << (8 * stringBytes)) - 1;
      }
    }
  }

  Attribute attribute() {
    return attribute;
  }

  /** The number of values minus one, unsigned. */
  long sizeMinus1() {
    return sizeMinus1;
  }

  /** Bits after which every cell holds one value; bits beyond it would be wasted. */
  int resolution() {
    return Codes.resolution(sizeMinus1);
  }

  /** The offset of this dimension's value in {@code event}. */
  long offset(Event event) {
    return switch (attribute) {
      case IntAttribute i -> event.intValue(i.position()) - i.min();
      case StringAttribute s -> stringOffset(event.stringValue(s.position()), 0);
    };
  }

  /** The offset of an int value (unsigned); the value must be inside the domain. */
  long intOffset(long value) {
    return value - ((IntAttribute) attribute).min();
  }

  /**
   * The offset of a string: its first bytes, each missing byte replaced by {@code pad} (0x00 gives
   * the least string with this prefix, 0xFF the greatest).
   */
  long stringOffset(String value, int pad) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    long v = 0;
    for (int i = 0; i < stringBytes; i++) {
      v = v << 8 | (i < bytes.length ? bytes[i] & 0xff : pad);
    }
    return v;
  }
}
