package org.netpubsub.edge.broker;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import org.netpubsub.edge.mqtt.TopicFilters;

/**
 * The edge datagram (docs/edge.md): magic {@code "NE"}, version 1, flags (bit 0 retain, bits 1–2
 * QoS, the rest 0), origin length (1 byte) and origin edge name, sequence (8 bytes), topic length
 * (2 bytes) and UTF-8 topic, payload length (2 bytes) and payload, nothing after. Big-endian; the
 * payload length makes every truncation detectable. Pure: decoding any bytes either returns a
 * message or throws {@link DatagramException}.
 */
public final class DatagramCodec {
  public static final byte MAGIC_0 = 'N';
  public static final byte MAGIC_1 = 'E';
  public static final byte VERSION = 1;

  /** The largest UDP payload over IPv6 without jumbograms: 65 535 − 40 (IPv6) − 8 (UDP). */
  public static final int MAX_DATAGRAM = 65_487;

  /** Edge names: what the coordinator accepts and what fits the 1-byte origin length. */
  public static final Pattern EDGE_NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private static final int FIXED = 2 + 1 + 1 + 1 + 8 + 2 + 2;

  private DatagramCodec() {}

  /** Header plus payload size of {@code m}'s datagram. */
  public static int size(EdgeMessage m) {
    return FIXED + utf8Length(m.origin()) + utf8Length(m.topic()) + m.payload().length;
  }

  /**
   * The datagram of {@code m}; {@link DatagramException} ({@code too_large}, {@code bad_topic},
   * {@code bad_origin}) if it cannot be one datagram. Never truncates.
   */
  public static byte[] encode(EdgeMessage m) throws DatagramException {
    if (!EDGE_NAME.matcher(m.origin()).matches()) {
      throw new DatagramException("bad_origin", "origin '" + m.origin() + "' is not an edge name");
    }
    if (!TopicFilters.isTopic(m.topic())) {
      throw new DatagramException("bad_topic", "not a topic name: '" + m.topic() + "'");
    }
    int size = size(m);
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
    b.put(MAGIC_0).put(MAGIC_1).put(VERSION);
    b.put((byte) ((m.retain() ? 1 : 0) | (m.qos() << 1)));
    b.put((byte) origin.length).put(origin);
    b.putLong(m.sequence());
    b.putShort((short) topic.length).put(topic);
    b.putShort((short) m.payload().length).put(m.payload());
    return b.array();
  }

  /** Decodes {@code len} bytes of {@code buf} from {@code off}. */
  public static EdgeMessage decode(byte[] buf, int off, int len) throws DatagramException {
    ByteBuffer b = ByteBuffer.wrap(buf, off, len);
    need(b, 5);
    if (b.get() != MAGIC_0 || b.get() != MAGIC_1) {
      throw new DatagramException("bad_magic", "not an edge datagram (magic)");
    }
    int version = b.get() & 0xff;
    if (version != VERSION) {
      throw new DatagramException("bad_version", "unsupported datagram version " + version);
    }
    int flags = b.get() & 0xff;
    int qos = (flags >> 1) & 3;
    if ((flags & ~7) != 0 || qos == 3) {
      throw new DatagramException("bad_flags", "bad flags 0x" + Integer.toHexString(flags));
    }
    int originLength = b.get() & 0xff;
    need(b, originLength + 8 + 2);
    String origin = utf8(b, originLength, "bad_origin");
    if (!EDGE_NAME.matcher(origin).matches()) {
      throw new DatagramException("bad_origin", "origin is not an edge name");
    }
    long sequence = b.getLong();
    int topicLength = b.getShort() & 0xffff;
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
    return new EdgeMessage(origin, sequence, topic, payload, qos, (flags & 1) != 0);
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
