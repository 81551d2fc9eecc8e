package org.netpubsub.compiler.itch;

/**
 * Batches a message stream into MoldUDP64 packets of at most {@code maxMessages} messages and
 * {@code maxPayload} bytes (UDP payload), numbering messages consecutively from the first sequence
 * number, as an exchange's publisher does. A message too large for any packet within the limit
 * travels alone. Packets go to the sink as they fill; {@link #flush} sends the last one. The sink's
 * bytes are reused after it returns.
 */
public final class MoldBatcher {
  /** Receives each finished packet. */
  @FunctionalInterface
  public interface Sink {
    void packet(byte[] buf, int off, int len);
  }

  /** The smallest payload limit: a header and one block of the longest ITCH 5.0 message. */
  public static final int MIN_PAYLOAD = MoldUdp64.HEADER_LENGTH + 2 + ItchMessageTypes.MAX_LENGTH;

  private final byte[] session;
  private final int maxMessages;
  private final int maxPayload;
  private final Sink sink;
  private byte[] buf;
  private int pos = MoldUdp64.HEADER_LENGTH;
  private int count;
  private long nextSequence;
  private long firstSequence;
  private long packets;

  public MoldBatcher(
      byte[] session, long firstSequence, int maxMessages, int maxPayload, Sink sink) {
    if (session.length != MoldUdp64.SESSION_LENGTH) {
      throw new IllegalArgumentException("a session is 10 bytes, got " + session.length);
    }
    if (maxMessages < 1 || maxMessages > MoldUdp64.MAX_COUNT) {
      throw new IllegalArgumentException(
          "messages per packet must be in 1.." + MoldUdp64.MAX_COUNT + ", got " + maxMessages);
    }
    if (maxPayload < MIN_PAYLOAD || maxPayload > 65_535) {
      throw new IllegalArgumentException(
          "the payload limit must be in " + MIN_PAYLOAD + "..65535 bytes, got " + maxPayload);
    }
    this.session = session.clone();
    this.maxMessages = maxMessages;
    this.maxPayload = maxPayload;
    this.sink = sink;
    this.nextSequence = firstSequence;
    this.buf = new byte[maxPayload];
  }

  /** Adds the message {@code src[off, off + len)}, sending the packet before it if it is full. */
  public void add(byte[] src, int off, int len) {
    if (len > MoldUdp64.MAX_MESSAGE_LENGTH) {
      throw new IllegalArgumentException("a MoldUDP64 block holds at most 65535 bytes");
    }
    if (count > 0 && (count == maxMessages || pos + 2 + len > maxPayload)) {
      flush();
    }
    if (count == 0) {
      firstSequence = nextSequence;
      if (buf.length < MoldUdp64.HEADER_LENGTH + 2 + len) {
        buf = new byte[MoldUdp64.HEADER_LENGTH + 2 + len];
      }
    }
    BigEndian.put16(buf, pos, len);
    System.arraycopy(src, off, buf, pos + 2, len);
    pos += 2 + len;
    count++;
    nextSequence++;
  }

  /** Sends the packet being filled, if it has messages. */
  public void flush() {
    if (count == 0) {
      return;
    }
    MoldUdp64.writeHeader(buf, 0, session, firstSequence, count);
    packets++;
    sink.packet(buf, 0, pos);
    pos = MoldUdp64.HEADER_LENGTH;
    count = 0;
  }

  /** Flushes, then sends a heartbeat (the next sequence number, no messages). */
  public void heartbeat() {
    control(MoldUdp64.HEARTBEAT);
  }

  /** Flushes, then sends the end of the session. */
  public void endOfSession() {
    control(MoldUdp64.END_OF_SESSION);
  }

  private void control(int count) {
    flush();
    byte[] h = new byte[MoldUdp64.HEADER_LENGTH];
    MoldUdp64.writeHeader(h, 0, session, nextSequence, count);
    packets++;
    sink.packet(h, 0, h.length);
  }

  /** The sequence number the next message gets. */
  public long nextSequence() {
    return nextSequence;
  }

  /** Packets sent so far. */
  public long packets() {
    return packets;
  }
}
