package org.netpubsub.compiler.itch;

/**
 * Frames Nasdaq's historical ITCH 5.0 files — each message preceded by its length as a 2-byte
 * big-endian integer — from chunks of any size: a message cut by a chunk boundary is carried over
 * to the next chunk. Push-style, so the caller owns the I/O; {@link #finish} reports a file that
 * ends inside a message.
 */
public final class ItchFileReader {
  /** Receives each message; the bytes are valid only during the call. */
  @FunctionalInterface
  public interface MessageSink {
    void message(byte[] buf, int off, int len);
  }

  private final byte[] carry = new byte[2 + MoldUdp64.MAX_MESSAGE_LENGTH];
  private int carried;
  private long messages;
  private long bytes;

  /** Frames {@code buf[off, off + len)}, the next bytes of the file. */
  public void feed(byte[] buf, int off, int len, MessageSink sink) {
    bytes += len;
    int pos = off;
    int limit = off + len;
    if (carried > 0) {
      while (carried < 2 && pos < limit) {
        carry[carried++] = buf[pos++];
      }
      if (carried < 2) {
        return;
      }
      int whole = 2 + BigEndian.u16(carry, 0);
      int take = Math.min(whole - carried, limit - pos);
      System.arraycopy(buf, pos, carry, carried, take);
      carried += take;
      pos += take;
      if (carried < whole) {
        return;
      }
      carried = 0;
      messages++;
      sink.message(carry, 2, whole - 2);
    }
    while (limit - pos >= 2) {
      int l = BigEndian.u16(buf, pos);
      if (l > limit - pos - 2) {
        break;
      }
      messages++;
      sink.message(buf, pos + 2, l);
      pos += 2 + l;
    }
    System.arraycopy(buf, pos, carry, 0, limit - pos);
    carried = limit - pos;
  }

  /**
   * Ends the file: null if it ended between messages, else why not (the partial message is
   * dropped).
   */
  public Malformation finish() {
    int c = carried;
    carried = 0;
    if (c == 0) {
      return null;
    }
    return c < 2 ? Malformation.TRUNCATED_BLOCK : Malformation.BLOCK_BEYOND_PACKET;
  }

  /** Messages framed so far. */
  public long messages() {
    return messages;
  }

  /** Bytes fed so far. */
  public long bytes() {
    return bytes;
  }
}
