package org.netpubsub.compiler.spec;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.netpubsub.content.address.FieldPacking;

/**
 * One field the tables match on, in the unsigned domain [0, 2^width − 1] (width ≤ 64; values are
 * unsigned {@code long}s, compared with {@link Long#compareUnsigned}). An int attribute of domain
 * [min, max] is stored as value − min; a string as its first width/8 UTF-8 bytes, big-endian,
 * padded with {@code pad} (ITCH pads stock symbols with spaces), so that byte order is numeric
 * order and a string prefix is a range.
 *
 * @param attribute the position of the attribute it carries in the spec's schema
 */
public record QueryField(
    String name, FieldKind kind, int width, MatchKind match, byte pad, long min, int attribute) {
  public QueryField {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(match, "match");
    if (width < 1 || width > 64) {
      throw new IllegalArgumentException(name + ": width must be 1..64 bits, got " + width);
    }
    if (kind == FieldKind.STRING && width % 8 != 0) {
      throw new IllegalArgumentException(name + ": a string field is whole bytes, got " + width);
    }
  }

  /** The largest value, 2^width − 1 (all ones). */
  public long max() {
    return width == 64 ? -1L : (1L << width) - 1;
  }

  /** The bytes of a string field. */
  public int bytes() {
    return width / 8;
  }

  /** The field value of an int attribute value (already checked to be in its domain). */
  public long encode(long attributeValue) {
    return attributeValue - min;
  }

  /**
   * The field value of a string: its first {@link #bytes} UTF-8 bytes, then {@code pad} bytes. Two
   * strings that agree on those bytes get the same value (a superset match for longer strings).
   */
  public long encode(String value) {
    return encode(value.getBytes(StandardCharsets.UTF_8), pad);
  }

  /** {@code bytes} truncated or padded with {@code fill} to this field's width, big-endian. */
  public long encode(byte[] bytes, byte fill) {
    return FieldPacking.bytesValue(bytes, bytes(), fill);
  }

  /**
   * Whether {@code value} fits the field: then its value stands for it, up to trailing pad bytes
   * ("AB" and "AB " are one value when the pad is a space, as ITCH pads symbols).
   */
  public boolean fits(String value) {
    return value.getBytes(StandardCharsets.UTF_8).length <= bytes();
  }
}
