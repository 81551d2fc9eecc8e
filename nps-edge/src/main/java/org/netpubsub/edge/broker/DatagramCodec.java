package org.netpubsub.edge.broker;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.netpubsub.edge.link.DatagramAuth;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * The edge datagram (docs/edge.md): magic {@code "NE"}, version, flags (bit 0 retain, bits 1–2 QoS,
 * bit 3 retained replay, the rest 0), origin length (1 byte) and origin edge name, in version 2
 * (reliable mode) the sender's session (8 bytes, non-zero), sequence (8 bytes), topic length (2
 * bytes) and UTF-8 topic, payload length (2 bytes) and payload, nothing after. Big-endian; the
 * payload length makes every truncation detectable. Version 1 is what agents without reliable mode
 * send, byte for byte as before. Pure: decoding any bytes either returns a message or throws {@link
 * DatagramException}.
 */
public final class DatagramCodec {
  public static final byte MAGIC_0 = 'N';
  public static final byte MAGIC_1 = 'E';
  public static final byte VERSION = 1;

  /** Reliable mode: version 1 plus the sender's session before the sequence. */
  public static final byte VERSION_RELIABLE = 2;

  /** Flag bit 3: a retained message replayed to an edge that registered after it (not live). */
  static final int REPLAY = 8;

  /**
   * A decoded datagram: the message, the sender's session ({@code 0}: version 1, unsequenced) and
   * whether it is a retained replay.
   */
  public record Datagram(EdgeMessage message, long session, boolean replay) {}

  /**
   * The largest datagram: a UDP payload over IPv6 without jumbograms (65 535 − 40 (IPv6) − 8 (UDP))
   * less the authentication tag sent after it ({@link DatagramAuth#TAG}).
   */
  public static final int MAX_DATAGRAM = 65_487 - DatagramAuth.TAG;

  /**
   * The longest topic in bytes (MQTT allows 65 535; receivers key state by topic, so a sender of
   * huge topics would cost them memory per datagram).
   */
  public static final int MAX_TOPIC = 1024;

  /** Edge names: what the coordinator accepts and what fits the 1-byte origin length. */
  public static final Pattern EDGE_NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private static final int FIXED = 2 + 1 + 1 + 1 + 8 + 2 + 2;

  private DatagramCodec() {}

  /** Header plus payload size of {@code m}'s datagram. */
  public static int size(EdgeMessage m) {
    return size(m, 0);
  }

  private static int size(EdgeMessage m, long session) {
    return FIXED
        + (session == 0 ? 0 : 8)
        + utf8Length(m.origin())
        + utf8Length(m.topic())
        + m.payload().length;
  }

  /**
   * The datagram of {@code m}; {@link DatagramException} ({@code too_large}, {@code bad_topic},
   * {@code bad_origin}) if it cannot be one datagram. Never truncates.
   */
  public static byte[] encode(EdgeMessage m) throws DatagramException {
    return encode(m, 0, false);
  }

  /**
   * The datagram of {@code m} in version 2 with {@code session} (reliable mode), or in version 1
   * when {@code session} is 0; {@code replay} sets flag bit 3.
   */
  public static byte[] encode(EdgeMessage m, long session, boolean replay)
      throws DatagramException {
    if (!EDGE_NAME.matcher(m.origin()).matches()) {
      throw new DatagramException("bad_origin", "origin '" + m.origin() + "' is not an edge name");
    }
    if (!TopicFilters.isTopic(m.topic())) {
      throw new DatagramException("bad_topic", "not a topic name: '" + m.topic() + "'");
    }
    if (utf8Length(m.topic()) > MAX_TOPIC) {
      throw new DatagramException("topic_too_long", "topic over " + MAX_TOPIC + " bytes");
    }
    int size = size(m, session);
    if (size > MAX_DATAGRAM) {
      throw new DatagramException(
          "too_large",
          "message on '"
              + m.topic()
              + "' needs "
              + size
              + " bytes, over one datagram ("
              + MAX_DATAGRAM
              + ")");
    }
    byte[] origin = m.origin().getBytes(StandardCharsets.UTF_8);
    byte[] topic = m.topic().getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(size);
    b.put(MAGIC_0).put(MAGIC_1).put(session == 0 ? VERSION : VERSION_RELIABLE);
    b.put((byte) ((m.retain() ? 1 : 0) | (m.qos() << 1) | (replay ? REPLAY : 0)));
    b.put((byte) origin.length).put(origin);
    if (session != 0) {
      b.putLong(session);
    }
    b.putLong(m.sequence());
    b.putShort((short) topic.length).put(topic);
    b.putShort((short) m.payload().length).put(m.payload());
    return b.array();
  }

  /** Decodes {@code len} bytes of {@code buf} from {@code off}. */
  public static EdgeMessage decode(byte[] buf, int off, int len) throws DatagramException {
    return decodeDatagram(buf, off, len).message();
  }

  /** Decodes {@code len} bytes of {@code buf} from {@code off}, with session and replay flag. */
  public static Datagram decodeDatagram(byte[] buf, int off, int len) throws DatagramException {
    ByteBuffer b = ByteBuffer.wrap(buf, off, len);
    need(b, 5);
    if (b.get() != MAGIC_0 || b.get() != MAGIC_1) {
      throw new DatagramException("bad_magic", "not an edge datagram (magic)");
    }
    int version = b.get() & 0xff;
    if (version != VERSION && version != VERSION_RELIABLE) {
      throw new DatagramException("bad_version", "unsupported datagram version " + version);
    }
    int flags = b.get() & 0xff;
    int qos = (flags >> 1) & 3;
    if ((flags & ~15) != 0 || qos == 3) {
      throw new DatagramException("bad_flags", "bad flags 0x" + Integer.toHexString(flags));
    }
    int originLength = b.get() & 0xff;
    int sessionLength = version == VERSION ? 0 : 8;
    need(b, originLength + sessionLength + 8 + 2);
    String origin = utf8(b, originLength, "bad_origin");
    if (!EDGE_NAME.matcher(origin).matches()) {
      throw new DatagramException("bad_origin", "origin is not an edge name");
    }
    long session = 0;
    if (sessionLength > 0 && (session = b.getLong()) == 0) {
      throw new DatagramException("bad_session", "session 0 in a reliable datagram");
    }
    long sequence = b.getLong();
    int topicLength = b.getShort() & 0xffff;
    if (topicLength > MAX_TOPIC) {
      throw new DatagramException("topic_too_long", "topic over " + MAX_TOPIC + " bytes");
    }
    need(b, topicLength + 2);
    String topic = utf8(b, topicLength, "bad_topic");
    if (!TopicFilters.isTopic(topic)) {
      throw new DatagramException("bad_topic", "not a topic name");
    }
    int payloadLength = b.getShort() & 0xffff;
    need(b, payloadLength);
    if (b.remaining() > payloadLength) {
      throw new DatagramException("bad_length", "bytes after the payload");
    }
    byte[] payload = new byte[payloadLength];
    b.get(payload);
    return new Datagram(
        new EdgeMessage(origin, sequence, topic, payload, qos, (flags & 1) != 0),
        session,
        (flags & REPLAY) != 0);
  }

  private static void need(ByteBuffer b, int n) throws DatagramException {
    if (b.remaining() < n) {
      throw new DatagramException("truncated", "datagram truncated");
    }
  }

  private static String utf8(ByteBuffer b, int n, String reason) throws DatagramException {
    ByteBuffer slice = b.slice(b.position(), n);
    b.position(b.position() + n);
    try {
      CharBuffer c =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(slice);
      return c.toString();
    } catch (CharacterCodingException e) {
      throw new DatagramException(reason, "invalid UTF-8");
    }
  }

  private static int utf8Length(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
