package org.netpubsub.edge.broker;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * The agents' control datagram (docs/edge.md, reliable mode and retained replay): magic {@code
 * "NR"}, version 1, kind, origin length (1 byte) and origin edge name, session (8 bytes), topic
 * length (2 bytes) and topic, {@code from} and {@code to} (8 bytes each), nothing after. Distinct
 * from the message datagram (magic {@code "NE"}) by its second byte. Pure; bad bytes throw {@link
 * DatagramException} with the counter name.
 */
public final class RepairCodec {
  static final byte MAGIC_0 = 'N';
  static final byte MAGIC_1 = 'R';
  static final byte VERSION = 1;

  /** The most numbers one NACK, GONE or SKIP may name. */
  public static final long MAX_RANGE = 4096;

  /** What a control datagram says; who sends it to whom is in {@link Repair}. */
  public enum Kind {
    /** Receiver → origin: send {@code topic}'s {@code from..to} of {@code session} again. */
    NACK,
    /** Origin → receiver: {@code from..to} are no longer buffered (lost for good). */
    GONE,
    /** Origin → receiver: {@code from..to} were not sent to you (not a loss). */
    SKIP,
    /** Origin → receivers: {@code topic}'s last number is {@code to} (finds tail loss). */
    HEARTBEAT,
    /** New edge → existing edge: send me your broker's retained messages ({@code session}: id). */
    REPLAY,
    /** Existing edge → new edge: the replay {@code session} is complete, {@code to} messages. */
    REPLAY_END,
    /**
     * Receiver → origin: {@code from..to} precede the first number I saw; send those I was a target
     * of, skip the others.
     */
    NACK_BEFORE
  }

  /**
   * One control datagram. {@code origin} is the edge whose sequence it is about (for a NACK: the
   * edge asked; for REPLAY: the edge asking, for REPLAY_END: the one that replayed).
   */
  public record Repair(Kind kind, String origin, long session, String topic, long from, long to) {}

  private RepairCodec() {}

  public static boolean isRepair(byte[] buf, int off, int len) {
    return len >= 2 && buf[off] == MAGIC_0 && buf[off + 1] == MAGIC_1;
  }

  public static byte[] encode(Repair r) {
    byte[] origin = r.origin().getBytes(StandardCharsets.UTF_8);
    byte[] topic = r.topic().getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(2 + 1 + 1 + 1 + origin.length + 8 + 2 + topic.length + 16)
        .put(MAGIC_0)
        .put(MAGIC_1)
        .put(VERSION)
        .put((byte) (r.kind().ordinal() + 1))
        .put((byte) origin.length)
        .put(origin)
        .putLong(r.session())
        .putShort((short) topic.length)
        .put(topic)
        .putLong(r.from())
        .putLong(r.to())
        .array();
  }

  public static Repair decode(byte[] buf, int off, int len) throws DatagramException {
    ByteBuffer b = ByteBuffer.wrap(buf, off, len);
    if (len < 5 || b.get() != MAGIC_0 || b.get() != MAGIC_1) {
      throw new DatagramException("bad_magic", "not a control datagram");
    }
    if (b.get() != VERSION) {
      throw new DatagramException("bad_version", "unsupported control datagram version");
    }
    int k = b.get() & 0xff;
    if (k < 1 || k > Kind.values().length) {
      throw new DatagramException("bad_kind", "unknown control kind " + k);
    }
    Kind kind = Kind.values()[k - 1];
    int n = b.get() & 0xff;
    need(b, n + 8 + 2);
    String origin = utf8(b, n);
    if (!DatagramCodec.EDGE_NAME.matcher(origin).matches()) {
      throw new DatagramException("bad_origin", "control origin is not an edge name");
    }
    long session = b.getLong();
    int t = b.getShort() & 0xffff;
    if (t > DatagramCodec.MAX_TOPIC) {
      throw new DatagramException("topic_too_long", "control topic over the limit");
    }
    need(b, t + 16);
    if (b.remaining() > t + 16) {
      throw new DatagramException("bad_length", "bytes after a control datagram");
    }
    String topic = utf8(b, t);
    long from = b.getLong();
    long to = b.getLong();
    boolean replay = kind == Kind.REPLAY || kind == Kind.REPLAY_END;
    if (replay ? !topic.isEmpty() : !TopicFilters.isTopic(topic)) {
      throw new DatagramException("bad_topic", "control topic");
    }
    if (session == 0) {
      throw new DatagramException("bad_session", "session 0");
    }
    boolean ok =
        switch (kind) {
          case NACK, NACK_BEFORE, GONE, SKIP -> from >= 1 && to >= from && to - from < MAX_RANGE;
          case HEARTBEAT -> from >= 1 && to == from;
          case REPLAY -> from == 0 && to == 0;
          case REPLAY_END -> from >= 0 && to == from;
        };
    if (!ok) {
      throw new DatagramException("bad_range", kind + " range " + from + ".." + to);
    }
    return new Repair(kind, origin, session, topic, from, to);
  }

  private static void need(ByteBuffer b, int n) throws DatagramException {
    if (b.remaining() < n) {
      throw new DatagramException("truncated", "control datagram truncated");
    }
  }

  private static String utf8(ByteBuffer b, int n) throws DatagramException {
    byte[] raw = new byte[n];
    b.get(raw);
    String s = new String(raw, StandardCharsets.UTF_8);
    if (!Arrays.equals(s.getBytes(StandardCharsets.UTF_8), raw)) {
      throw new DatagramException("bad_topic", "invalid UTF-8");
    }
    return s;
  }
}
