package org.netpubsub.compiler.itch;

import java.util.Optional;
import org.netpubsub.compiler.spec.BuiltinSpecs;

/**
 * One ITCH 5.0 Add Order with every field, for encoders, generators and tests ({@link AddOrders}
 * decodes the hot path without building one). {@code stock} is the 8 bytes big-endian; {@code
 * attribution} the 4-byte MPID of an 'F' message (0 for 'A').
 */
public record AddOrder(
    byte type,
    int stockLocate,
    int trackingNumber,
    long timestamp,
    long orderReference,
    byte side,
    long shares,
    long stock,
    long price,
    int attribution) {
  public AddOrder {
    if (!ItchMessageTypes.isAddOrder(type)) {
      throw new IllegalArgumentException("an Add Order is type 'A' or 'F', not " + type);
    }
    check("stock locate", stockLocate, 0xffff);
    check("tracking number", trackingNumber, 0xffff);
    check("timestamp", timestamp, (1L << 48) - 1);
    check("shares", shares, 0xffff_ffffL);
    check("price", price, 0xffff_ffffL);
    if (type == ItchMessageTypes.ADD_ORDER && attribution != 0) {
      throw new IllegalArgumentException("an 'A' Add Order has no attribution");
    }
  }

  private static void check(String what, long v, long max) {
    if (v < 0 || v > max) {
      throw new IllegalArgumentException(what + " " + v + " is outside 0.." + max);
    }
  }

  /** An 'A' order for a symbol (padded with spaces as ITCH and {@code QueryField} do). */
  public static AddOrder of(
      String symbol, long price, long shares, char side, long orderReference, long timestamp) {
    return new AddOrder(
        ItchMessageTypes.ADD_ORDER,
        0,
        0,
        timestamp,
        orderReference,
        (byte) side,
        shares,
        stockValue(symbol),
        price,
        0);
  }

  /** The 8-byte stock value of a symbol: {@code QueryField.encode} of the ITCH spec's field. */
  public static long stockValue(String symbol) {
    if (symbol.length() > 8 || !symbol.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
      throw new IllegalArgumentException("a stock is at most 8 ASCII characters: '" + symbol + "'");
    }
    return BuiltinSpecs.itch().field(AddOrders.STOCK_FIELD).encode(symbol);
  }

  public int length() {
    return type == ItchMessageTypes.ADD_ORDER
        ? ItchMessageTypes.ADD_ORDER_LENGTH
        : ItchMessageTypes.ADD_ORDER_MPID_LENGTH;
  }

  /** Writes the message at {@code off}; returns its length. */
  public int encode(byte[] dst, int off) {
    dst[off] = type;
    BigEndian.put16(dst, off + AddOrders.LOCATE, stockLocate);
    BigEndian.put16(dst, off + AddOrders.TRACKING, trackingNumber);
    BigEndian.put48(dst, off + AddOrders.TIMESTAMP, timestamp);
    BigEndian.put64(dst, off + AddOrders.REFERENCE, orderReference);
    dst[off + AddOrders.SIDE] = side;
    BigEndian.put32(dst, off + AddOrders.SHARES, shares);
    BigEndian.put64(dst, off + AddOrders.STOCK, stock);
    BigEndian.put32(dst, off + AddOrders.PRICE, price);
    if (type == ItchMessageTypes.ADD_ORDER_MPID) {
      BigEndian.put32(dst, off + AddOrders.ATTRIBUTION, attribution & 0xffff_ffffL);
    }
    return length();
  }

  public byte[] encode() {
    byte[] out = new byte[length()];
    encode(out, 0);
    return out;
  }

  /**
   * Every field of the well-formed Add Order in {@code buf[off, off + len)}; empty if it is not one
   * (another type, or malformed).
   */
  public static Optional<AddOrder> decode(byte[] buf, int off, int len) {
    if (len < 1 || !ItchMessageTypes.isAddOrder(buf[off])) {
      return Optional.empty();
    }
    long[] v = new long[AddOrders.FIELDS];
    if (AddOrders.decode(buf, off, len, v) != null) {
      return Optional.empty();
    }
    byte type = buf[off];
    return Optional.of(
        new AddOrder(
            type,
            BigEndian.u16(buf, off + AddOrders.LOCATE),
            BigEndian.u16(buf, off + AddOrders.TRACKING),
            BigEndian.u48(buf, off + AddOrders.TIMESTAMP),
            BigEndian.u64(buf, off + AddOrders.REFERENCE),
            (byte) v[AddOrders.SIDE_FIELD],
            v[AddOrders.SHARES_FIELD],
            v[AddOrders.STOCK_FIELD],
            v[AddOrders.PRICE_FIELD],
            type == ItchMessageTypes.ADD_ORDER_MPID
                ? (int) BigEndian.u32(buf, off + AddOrders.ATTRIBUTION)
                : 0));
  }

  /** The query-field values ({@code BuiltinSpecs.itch()} order). */
  public long[] values() {
    return new long[] {stock, price, shares, side & 0xff};
  }

  public String symbol() {
    return AddOrders.symbol(stock);
  }
}
