package org.netpubsub.edge.overlay;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.netpubsub.edge.broker.DatagramCodec;
import org.netpubsub.edge.broker.DatagramException;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * The overlay's NACK datagram, edge to publishing edge: magic {@code "NK"}, version 1, topic length
 * (2 bytes) and UTF-8 topic, first and last missing sequence numbers (8 bytes each), nothing after.
 * Distinct from the message datagram ({@link DatagramCodec}, magic {@code "NE"}) by its first two
 * bytes. Pure; bad bytes throw {@link DatagramException} with the counter name.
 */
public final class NackCodec {
  static final byte MAGIC_0 = 'N';
  static final byte MAGIC_1 = 'K';

  /** The most numbers one NACK may ask for (a larger gap is not recoverable anyway). */
  public static final long MAX_RANGE = 4096;

  private NackCodec() {}

  public static boolean isNack(byte[] buf, int off, int len) {
    return len >= 2 && buf[off] == MAGIC_0 && buf[off + 1] == MAGIC_1;
  }

  public static byte[] encode(ReceiveWindows.Nack n) {
    byte[] topic = n.topic().getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(2 + 1 + 2 + topic.length + 16)
        .put(MAGIC_0)
        .put(MAGIC_1)
        .put((byte) 1)
        .putShort((short) topic.length)
        .put(topic)
        .putLong(n.from())
        .putLong(n.to())
        .array();
  }

  /** The NACK in the bytes; its origin is the receiving edge (who is asked). */
  public static ReceiveWindows.Nack decode(byte[] buf, int off, int len, String origin)
      throws DatagramException {
    ByteBuffer b = ByteBuffer.wrap(buf, off, len);
    if (len < 5 || b.get() != MAGIC_0 || b.get() != MAGIC_1) {
      throw new DatagramException("bad_magic", "not a NACK");
    }
    if (b.get() != 1) {
      throw new DatagramException("bad_version", "unsupported NACK version");
    }
    int t = b.getShort() & 0xffff;
    if (t > DatagramCodec.MAX_TOPIC) {
      throw new DatagramException("topic_too_long", "NACK topic over the limit");
    }
    if (b.remaining() != t + 16) {
      throw new DatagramException(b.remaining() < t + 16 ? "truncated" : "bad_length", "NACK size");
    }
    byte[] topic = new byte[t];
    b.get(topic);
    String name = new String(topic, StandardCharsets.UTF_8);
    if (!TopicFilters.isTopic(name)
        || !java.util.Arrays.equals(name.getBytes(StandardCharsets.UTF_8), topic)) {
      throw new DatagramException("bad_topic", "NACK topic");
    }
    long from = b.getLong();
    long to = b.getLong();
    if (from < 1 || to < from || to - from >= MAX_RANGE) {
      throw new DatagramException("bad_range", "NACK range " + from + ".." + to);
    }
    return new ReceiveWindows.Nack(origin, name, from, to);
  }
}
