package org.netpubsub.compiler.itch;

import java.util.Arrays;

/**
 * A reusable view of one MoldUDP64 packet: {@link #parse} checks the framing (header, every block
 * within the packet, exactly {@code count} blocks) and records where each message lies, without
 * copying or allocating (after its block table has grown to the largest packet seen). Malformed
 * framing is reported, never thrown. Not thread-safe; one per thread.
 */
public final class MoldPacket {
  private byte[] buf = new byte[0];
  private int off;
  private int length;
  private long sequence;
  private int count;
  private int messages;
  private Malformation malformation;

  /** starts[i]: offset of block i's length field; starts[messages]: the end of the last block. */
  private int[] starts = new int[64];

  /**
   * Reads the packet in {@code buf[off, off + len)}; false when its framing is malformed (see
   * {@link #malformation()}), and then it has no messages.
   */
  public boolean parse(byte[] buf, int off, int len) {
    this.buf = buf;
    this.off = off;
    this.length = len;
    this.messages = 0;
    this.malformation = null;
    if (len < MoldUdp64.HEADER_LENGTH) {
      return fail(Malformation.TRUNCATED_HEADER);
    }
    sequence = BigEndian.u64(buf, off + MoldUdp64.SEQUENCE_OFFSET);
    count = BigEndian.u16(buf, off + MoldUdp64.COUNT_OFFSET);
    int n = count == MoldUdp64.END_OF_SESSION ? 0 : count;
    int pos = off + MoldUdp64.HEADER_LENGTH;
    int limit = off + len;
    int[] s = starts;
    for (int i = 0; i < n; i++) {
      int left = limit - pos;
      if (left < 2) {
        return fail(left == 0 ? Malformation.COUNT_MISMATCH : Malformation.TRUNCATED_BLOCK);
      }
      int l = BigEndian.u16(buf, pos);
      if (l > left - 2) {
        return fail(Malformation.BLOCK_BEYOND_PACKET);
      }
      if (i + 1 >= s.length) {
        s = starts = Arrays.copyOf(s, s.length * 2);
      }
      s[i] = pos;
      pos += 2 + l;
    }
    s[n] = pos;
    if (pos != limit) {
      return fail(Malformation.TRAILING_BYTES);
    }
    messages = n;
    return true;
  }

  private boolean fail(Malformation m) {
    malformation = m;
    messages = 0;
    return false;
  }

  /** Why the last {@link #parse} failed; null after a success. */
  public Malformation malformation() {
    return malformation;
  }

  public byte[] buffer() {
    return buf;
  }

  /** Where the packet starts in {@link #buffer()}. */
  public int offset() {
    return off;
  }

  public int length() {
    return length;
  }

  /** The sequence number of the first message (of the next one, for a heartbeat). */
  public long sequence() {
    return sequence;
  }

  /** The header's count field as sent (0 heartbeat, 0xFFFF end of session). */
  public int count() {
    return count;
  }

  public boolean isHeartbeat() {
    return count == MoldUdp64.HEARTBEAT;
  }

  public boolean isEndOfSession() {
    return count == MoldUdp64.END_OF_SESSION;
  }

  /** The messages framed (0 for a heartbeat, an end of session, or a malformed packet). */
  public int messages() {
    return messages;
  }

  /** Where message {@code i}'s bytes start in {@link #buffer()} (its type byte). */
  public int messageOffset(int i) {
    return starts[i] + 2;
  }

  public int messageLength(int i) {
    return starts[i + 1] - starts[i] - 2;
  }

  /** Where block {@code i} (length field, then message) starts; {@code i = messages()}: the end. */
  public int blockOffset(int i) {
    return starts[i];
  }

  /** The sequence number of message {@code i} (unsigned, wrapping as MoldUDP64 does not). */
  public long sequenceOf(int i) {
    return sequence + i;
  }
}
