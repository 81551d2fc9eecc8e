package org.netpubsub.compiler.itch;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * MoldUDP64 downstream packets (FORMATS.md): a 20-byte header — session (10 ASCII bytes), the
 * sequence number of the first message (uint64), the message count (uint16; 0 is a heartbeat,
 * 0xFFFF the end of the session) — then one block per message, a uint16 length and the message.
 * Message {@code i} of a packet has sequence number {@code sequence + i}. Encoders for generators
 * and tests; {@link MoldPacket} decodes.
 */
public final class MoldUdp64 {
  public static final int HEADER_LENGTH = 20;
  public static final int SESSION_LENGTH = 10;
  public static final int SEQUENCE_OFFSET = 10;
  public static final int COUNT_OFFSET = 18;

  /** The count of a heartbeat: no messages; its sequence is the next one to come. */
  public static final int HEARTBEAT = 0;

  /** The count that ends a session. */
  public static final int END_OF_SESSION = 0xFFFF;

  /** The most messages one packet can count. */
  public static final int MAX_COUNT = 0xFFFE;

  /** The longest message a block can frame. */
  public static final int MAX_MESSAGE_LENGTH = 0xFFFF;

  private MoldUdp64() {}

  /** A session name as its 10 header bytes: ASCII, right-padded with spaces. */
  public static byte[] session(String name) {
    byte[] b = name.getBytes(StandardCharsets.US_ASCII);
    if (b.length > SESSION_LENGTH || !name.chars().allMatch(c -> c >= 0x20 && c < 0x7f)) {
      throw new IllegalArgumentException(
          "a MoldUDP64 session is at most 10 printable ASCII characters, got '" + name + "'");
    }
    byte[] out = new byte[SESSION_LENGTH];
    java.util.Arrays.fill(out, (byte) ' ');
    System.arraycopy(b, 0, out, 0, b.length);
    return out;
  }

  /** Writes a header at {@code off}. */
  public static void writeHeader(byte[] dst, int off, byte[] session, long sequence, int count) {
    if (session.length != SESSION_LENGTH) {
      throw new IllegalArgumentException("a session is 10 bytes, got " + session.length);
    }
    System.arraycopy(session, 0, dst, off, SESSION_LENGTH);
    BigEndian.put64(dst, off + SEQUENCE_OFFSET, sequence);
    BigEndian.put16(dst, off + COUNT_OFFSET, count);
  }

  /** A packet carrying {@code messages}, the first numbered {@code sequence}. */
  public static byte[] encode(byte[] session, long sequence, List<byte[]> messages) {
    if (messages.size() > MAX_COUNT) {
      throw new IllegalArgumentException("at most " + MAX_COUNT + " messages per packet");
    }
    int size = HEADER_LENGTH;
    for (byte[] m : messages) {
      if (m.length > MAX_MESSAGE_LENGTH) {
        throw new IllegalArgumentException("a message is at most 65535 bytes");
      }
      size += 2 + m.length;
    }
    byte[] out = new byte[size];
    writeHeader(out, 0, session, sequence, messages.size());
    int pos = HEADER_LENGTH;
    for (byte[] m : messages) {
      BigEndian.put16(out, pos, m.length);
      System.arraycopy(m, 0, out, pos + 2, m.length);
      pos += 2 + m.length;
    }
    return out;
  }

  /** A heartbeat: no messages, {@code nextSequence} the number of the next message. */
  public static byte[] heartbeat(byte[] session, long nextSequence) {
    byte[] out = new byte[HEADER_LENGTH];
    writeHeader(out, 0, session, nextSequence, HEARTBEAT);
    return out;
  }

  /** The end of a session. */
  public static byte[] endOfSession(byte[] session, long nextSequence) {
    byte[] out = new byte[HEADER_LENGTH];
    writeHeader(out, 0, session, nextSequence, END_OF_SESSION);
    return out;
  }
}
