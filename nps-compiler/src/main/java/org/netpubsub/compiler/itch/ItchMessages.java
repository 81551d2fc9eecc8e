package org.netpubsub.compiler.itch;

/**
 * Encoders of the ITCH 5.0 messages besides Add Orders that the synthetic feed mixes in, so that
 * skipping by length is exercised with real layouts. Each writes the message at {@code off} and
 * returns its length; every one starts with type, stock locate, tracking number and timestamp.
 */
public final class ItchMessages {
  private ItchMessages() {}

  private static int header(byte[] dst, int off, byte type, int locate, long timestamp) {
    dst[off] = type;
    BigEndian.put16(dst, off + 1, locate);
    BigEndian.put16(dst, off + 3, 0);
    BigEndian.put48(dst, off + 5, timestamp);
    return off + 11;
  }

  /** 'S' system event; {@code code} 'O' start of messages, 'S', 'Q', 'M', 'E', 'C'. */
  public static int systemEvent(byte[] dst, int off, long timestamp, char code) {
    int p = header(dst, off, ItchMessageTypes.SYSTEM_EVENT, 0, timestamp);
    dst[p] = (byte) code;
    return 12;
  }

  /** 'E' order executed. */
  public static int orderExecuted(
      byte[] dst, int off, int locate, long timestamp, long reference, long shares, long match) {
    int p = header(dst, off, ItchMessageTypes.ORDER_EXECUTED, locate, timestamp);
    BigEndian.put64(dst, p, reference);
    BigEndian.put32(dst, p + 8, shares);
    BigEndian.put64(dst, p + 12, match);
    return 31;
  }

  /** 'X' order cancel (partial). */
  public static int orderCancel(
      byte[] dst, int off, int locate, long timestamp, long reference, long shares) {
    int p = header(dst, off, ItchMessageTypes.ORDER_CANCEL, locate, timestamp);
    BigEndian.put64(dst, p, reference);
    BigEndian.put32(dst, p + 8, shares);
    return 23;
  }

  /** 'D' order delete. */
  public static int orderDelete(byte[] dst, int off, int locate, long timestamp, long reference) {
    int p = header(dst, off, ItchMessageTypes.ORDER_DELETE, locate, timestamp);
    BigEndian.put64(dst, p, reference);
    return 19;
  }

  /** 'U' order replace. */
  public static int orderReplace(
      byte[] dst,
      int off,
      int locate,
      long timestamp,
      long reference,
      long newReference,
      long shares,
      long price) {
    int p = header(dst, off, ItchMessageTypes.ORDER_REPLACE, locate, timestamp);
    BigEndian.put64(dst, p, reference);
    BigEndian.put64(dst, p + 8, newReference);
    BigEndian.put32(dst, p + 16, shares);
    BigEndian.put32(dst, p + 20, price);
    return 35;
  }

  /** 'P' trade (non-cross). */
  public static int trade(
      byte[] dst,
      int off,
      int locate,
      long timestamp,
      long reference,
      byte side,
      long shares,
      long stock,
      long price,
      long match) {
    int p = header(dst, off, ItchMessageTypes.TRADE, locate, timestamp);
    BigEndian.put64(dst, p, reference);
    dst[p + 8] = side;
    BigEndian.put32(dst, p + 9, shares);
    BigEndian.put64(dst, p + 13, stock);
    BigEndian.put32(dst, p + 21, price);
    BigEndian.put64(dst, p + 25, match);
    return 44;
  }
}
