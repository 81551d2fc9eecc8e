package org.netpubsub.content.event;

import static org.netpubsub.content.event.DecodeException.Reason.BAD_FLAGS;
import static org.netpubsub.content.event.DecodeException.Reason.INVALID_TOPIC;
import static org.netpubsub.content.event.DecodeException.Reason.SCHEMA_MISMATCH;
import static org.netpubsub.content.event.DecodeException.Reason.STRING_TOO_LONG;
import static org.netpubsub.content.event.DecodeException.Reason.TOO_LARGE;
import static org.netpubsub.content.event.DecodeException.Reason.TRAILING_BYTES;
import static org.netpubsub.content.event.DecodeException.Reason.TRUNCATED;
import static org.netpubsub.content.event.DecodeException.Reason.UNSUPPORTED_VERSION;
import static org.netpubsub.content.event.DecodeException.Reason.VALUE_OUT_OF_DOMAIN;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.List;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.StringAttribute;

/**
 * The wire format of events (one event per UDP datagram), version 1. Thread-safe.
 *
 * <pre>
 * offset  size  field
 *  0      1     version, = 1
 *  1      1     flags, = 0 (reserved: any set bit is an error)
 *  2      4     schema id ({@link Schema#id()}, CRC-32C of the attributes), big-endian
 *  6      8     publisher id, unsigned, big-endian
 * 14      8     sequence number, unsigned, big-endian
 * 22      8     timestamp, ns since the epoch, signed, big-endian
 * 30      ...   one value per attribute, in schema order:
 *                 int:    varint of (value - min), computed modulo 2^64
 *                 string: varint byte length (&lt;= max_length), then that many UTF-8 bytes
 *  ...    ...   payload: varint byte length, then the bytes; nothing follows
 * </pre>
 *
 * <p>Varints are unsigned LEB128 (7 bits per byte, low group first). Ints are sent as offsets from
 * the domain's min, so small domains such as [1000, 1100] cost one or two bytes whatever the
 * values' magnitude. The encoding is canonical: varints are shortest, UTF-8 is well-formed, no byte
 * follows the payload; so every byte string that decodes re-encodes to itself. An encoded event is
 * at most {@link #MAX_SIZE} bytes.
 */
public final class EventCodec {
  public static final int VERSION = 1;

  /** The largest encoded event: what fits one UDP datagram with room for the IPv6 headers. */
  public static final int MAX_SIZE = 65_000;

  private final Schema schema;
  private final List<Attribute> attributes;

  public EventCodec(Schema schema) {
    this.schema = schema;
    this.attributes = schema.attributes();
  }

  public Schema schema() {
    return schema;
  }

  /** The encoded event, exactly as long as needed. */
  public byte[] encode(Event event) {
    byte[] out = new byte[encodedSize(event)];
    write(event, ByteBuffer.wrap(out));
    return out;
  }

  /**
   * Writes the encoded event at the buffer's position and advances it (the buffer's byte order does
   * not matter).
   *
   * @return the number of bytes written
   * @throws BufferOverflowException when the event does not fit the remaining space; nothing is
   *     written then
   */
  public int encode(Event event, ByteBuffer out) {
    int size = encodedSize(event);
    if (out.remaining() < size) {
      throw new BufferOverflowException();
    }
    write(event, out);
    return size;
  }

  /**
   * The encoded size of {@code event}; checks that it can be encoded at all.
   *
   * @throws IllegalArgumentException when the event has another schema, a string that is not valid
   *     Unicode, or encodes to more than {@link #MAX_SIZE} bytes
   */
  public int encodedSize(Event event) {
    if (event.schema() != schema && !event.schema().attributes().equals(attributes)) {
      throw new IllegalArgumentException(
          "event of schema " + event.schema().name() + " given to the codec of " + schema.name());
    }
    long size = EventHeader.SIZE;
    for (Attribute a : attributes) {
      switch (a) {
        case IntAttribute i -> size += Varint.size(event.intValue(i.position()) - i.min());
        case StringAttribute s -> {
          int length = Utf8.length(event.stringValue(s.position()));
          if (length < 0) {
            throw new IllegalArgumentException(
                "attribute "
                    + s.name()
                    + " holds an unpaired surrogate, which UTF-8 cannot encode");
          }
          size += Varint.size(length) + length;
        }
      }
    }
    size += Varint.size(event.payloadLength()) + event.payloadLength();
    if (size > MAX_SIZE) {
      throw new IllegalArgumentException(
          "event encodes to "
              + size
              + " bytes, more than the "
              + MAX_SIZE
              + " that fit one datagram (payload "
              + event.payloadLength()
              + " bytes)");
    }
    return (int) size;
  }

  private void write(Event event, ByteBuffer out) {
    out.put((byte) VERSION).put((byte) 0);
    putBigEndian(out, schema.id(), 4);
    putBigEndian(out, event.publisherId(), 8);
    putBigEndian(out, event.sequence(), 8);
    putBigEndian(out, event.timestampNanos(), 8);
    for (Attribute a : attributes) {
      switch (a) {
        case IntAttribute i -> Varint.write(event.intValue(i.position()) - i.min(), out);
        case StringAttribute s -> {
          String value = event.stringValue(s.position());
          Varint.write(Utf8.length(value), out);
          Utf8.write(value, out);
        }
      }
    }
    Varint.write(event.payloadLength(), out);
    out.put(event.payload());
  }

  private static void putBigEndian(ByteBuffer out, long value, int bytes) {
    for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) {
      out.put((byte) (value >>> shift));
    }
  }

  public Event decode(byte[] bytes) throws DecodeException {
    return decode(ByteBuffer.wrap(bytes));
  }

  /**
   * Decodes the remaining bytes of {@code in} as one event. On success the position moves to the
   * limit; on failure it stays. Offsets in errors count from the position.
   */
  public Event decode(ByteBuffer in) throws DecodeException {
    if (in.remaining() > MAX_SIZE) {
      throw new DecodeException(
          TOO_LARGE, MAX_SIZE, in.remaining() + " bytes, more than an event's " + MAX_SIZE);
    }
    WireReader r = new WireReader(in);
    EventHeader h = readHeader(r);
    if (h.schemaId() != schema.id()) {
      throw new DecodeException(
          SCHEMA_MISMATCH,
          2,
          String.format(
              "schema id %08x, expected %08x (%s)", h.schemaId(), schema.id(), schema.name()));
    }
    Event.Builder b =
        Event.builder(schema)
            .publisherId(h.publisherId())
            .sequence(h.sequence())
            .timestampNanos(h.timestampNanos());
    for (Attribute a : attributes) {
      int at = r.offset();
      switch (a) {
        case IntAttribute i -> {
          long offset = r.varint(i.name());
          if (Long.compareUnsigned(offset, i.max() - i.min()) > 0) {
            throw new DecodeException(
                VALUE_OUT_OF_DOMAIN,
                at,
                i.name()
                    + " = "
                    + (i.min() + offset)
                    + " outside ["
                    + i.min()
                    + ", "
                    + i.max()
                    + "]");
          }
          b.set(i, i.min() + offset);
        }
        case StringAttribute s -> {
          long length = r.varint(s.name() + " length");
          if (Long.compareUnsigned(length, s.maxLength()) > 0) {
            throw new DecodeException(
                STRING_TOO_LONG,
                at,
                s.name()
                    + " has "
                    + Long.toUnsignedString(length)
                    + " bytes, max_length is "
                    + s.maxLength());
          }
          String value = r.utf8(r.length(length, at, s.name()), s.name());
          String topic = s.topicProblem(value);
          if (topic != null) {
            throw new DecodeException(INVALID_TOPIC, at, s.name() + ": " + topic);
          }
          b.set(s, value);
        }
      }
    }
    int at = r.offset();
    int payloadLength = r.length(r.varint("payload length"), at, "payload");
    b.payload(r.bytes(payloadLength));
    if (r.remaining() > 0) {
      throw new DecodeException(
          TRAILING_BYTES, r.offset(), r.remaining() + " bytes follow the payload");
    }
    in.position(in.limit());
    return b.build();
  }

  /** The header of an encoded event, without decoding (or checking) the values. */
  public static EventHeader peekHeader(byte[] bytes) throws DecodeException {
    return peekHeader(ByteBuffer.wrap(bytes));
  }

  /** The header of the event at the buffer's position; the position does not move. */
  public static EventHeader peekHeader(ByteBuffer in) throws DecodeException {
    return readHeader(new WireReader(in));
  }

  private static EventHeader readHeader(WireReader r) throws DecodeException {
    int version = r.u8("the version");
    if (version != VERSION) {
      throw new DecodeException(
          UNSUPPORTED_VERSION, 0, "version " + version + ", this codec reads " + VERSION);
    }
    if (r.remaining() < EventHeader.SIZE - 1) {
      throw new DecodeException(
          TRUNCATED, r.remaining() + 1, "a header has " + EventHeader.SIZE + " bytes");
    }
    int flags = r.u8("the flags");
    if (flags != 0) {
      throw new DecodeException(BAD_FLAGS, 1, String.format("flags %02x, all reserved", flags));
    }
    return new EventHeader(
        version,
        (int) r.fixed(4, "the schema id"),
        r.fixed(8, "the publisher id"),
        r.fixed(8, "the sequence"),
        r.fixed(8, "the timestamp"));
  }
}
