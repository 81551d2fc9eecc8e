package org.netpubsub.compiler.itch;

import org.netpubsub.content.event.Event;
import org.netpubsub.content.schema.Schema;

/**
 * The hot path of ITCH decoding: an 'A' or 'F' Add Order read in place into the query-field values
 * of {@code BuiltinSpecs.itch()} — stock (the 8 space-padded bytes as one big-endian value, exactly
 * {@code QueryField.encode} of the symbol), price, shares, side — with no allocation. Offsets are
 * those of FORMATS.md; both types share them up to the price.
 */
public final class AddOrders {
  static final int LOCATE = 1;
  static final int TRACKING = 3;
  static final int TIMESTAMP = 5;
  static final int REFERENCE = 11;
  static final int SIDE = 19;
  static final int SHARES = 20;
  static final int STOCK = 24;
  static final int PRICE = 32;
  static final int ATTRIBUTION = 36;

  /** Positions in the value array: the field order of {@code BuiltinSpecs.itch()}. */
  public static final int STOCK_FIELD = 0;

  public static final int PRICE_FIELD = 1;
  public static final int SHARES_FIELD = 2;
  public static final int SIDE_FIELD = 3;

  /** Values per message. */
  public static final int FIELDS = 4;

  private static final long ONES = 0x0101_0101_0101_0101L;
  private static final long HIGHS = 0x8080_8080_8080_8080L;

  private AddOrders() {}

  /**
   * Decodes the Add Order in {@code buf[off, off + len)} (its type byte at {@code off} is 'A' or
   * 'F') into {@code out[0..3]}; returns null, or why it is malformed (then {@code out} is
   * unspecified).
   */
  public static Malformation decode(byte[] buf, int off, int len, long[] out) {
    byte type = buf[off];
    int expected =
        type == ItchMessageTypes.ADD_ORDER
            ? ItchMessageTypes.ADD_ORDER_LENGTH
            : ItchMessageTypes.ADD_ORDER_MPID_LENGTH;
    if (len != expected) {
      return Malformation.BAD_LENGTH;
    }
    byte side = buf[off + SIDE];
    if (side != 'B' && side != 'S') {
      return Malformation.BAD_SIDE;
    }
    long stock = BigEndian.u64(buf, off + STOCK);
    if (!printable(stock)) {
      return Malformation.BAD_STOCK;
    }
    out[STOCK_FIELD] = stock;
    out[PRICE_FIELD] = BigEndian.u32(buf, off + PRICE);
    out[SHARES_FIELD] = BigEndian.u32(buf, off + SHARES);
    out[SIDE_FIELD] = side;
    return null;
  }

  /**
   * Whether all 8 bytes are printable ASCII, 0x20–0x7E (SWAR: no byte below 0x20 or above 0x7E).
   */
  static boolean printable(long v) {
    long below = (v - 0x20 * ONES) & ~v & HIGHS;
    long above = ((v + (127 - 0x7e) * ONES) | v) & HIGHS;
    return (below | above) == 0;
  }

  /** The symbol of a stock value: its bytes without the trailing space padding. */
  public static String symbol(long stock) {
    char[] c = new char[8];
    int n = 0;
    for (int i = 0; i < 8; i++) {
      c[i] = (char) ((stock >>> (56 - 8 * i)) & 0xff);
      if (c[i] != ' ') {
        n = i + 1;
      }
    }
    return new String(c, 0, n);
  }

  /**
   * The content event of decoded values, over a schema with the ITCH model's attributes (stock,
   * price, shares, side), e.g. {@code BuiltinSpecs.itch().schema()}: for the direct filter
   * evaluation that the compiled tables must agree with.
   */
  public static Event toEvent(Schema schema, long[] values) {
    return Event.builder(schema)
        .set("stock", symbol(values[STOCK_FIELD]))
        .set("price", values[PRICE_FIELD])
        .set("shares", values[SHARES_FIELD])
        .set("side", String.valueOf((char) values[SIDE_FIELD]))
        .build();
  }
}
