package org.netpubsub.content.event;

/**
 * Bytes that are not a valid encoded event: why ({@link Reason}) and at which byte offset. The only
 * exception {@link EventCodec} throws while decoding.
 */
public final class DecodeException extends Exception {
  private static final long serialVersionUID = 1L;

  /** What is wrong with the bytes. */
  public enum Reason {
    /** The input ends inside a field. */
    TRUNCATED,
    /** The version byte is not one this codec reads. */
    UNSUPPORTED_VERSION,
    /** A reserved flag bit is set. */
    BAD_FLAGS,
    /** The schema id is not the id of the codec's schema. */
    SCHEMA_MISMATCH,
    /** A varint has more than 10 bytes or does not fit 64 bits. */
    VARINT_TOO_LONG,
    /** A varint is longer than needed (the encoding is canonical: one byte string per event). */
    NON_CANONICAL_VARINT,
    /** An int value lies outside its attribute's [min, max]. */
    VALUE_OUT_OF_DOMAIN,
    /** A string is longer than its attribute's max_length. */
    STRING_TOO_LONG,
    /** A string's bytes are not well-formed UTF-8. */
    INVALID_UTF8,
    /** A topic attribute's value is not a topic name (an empty level, a wildcard, too many). */
    INVALID_TOPIC,
    /** A length field points past the end of the input. */
    LENGTH_EXCEEDS_INPUT,
    /** Bytes follow the payload. */
    TRAILING_BYTES,
    /** The input is longer than the largest event, {@link EventCodec#MAX_SIZE} bytes. */
    TOO_LARGE
  }

  private final Reason reason;
  private final int offset;

  public DecodeException(Reason reason, int offset, String detail) {
    // No stack trace: hostile datagrams arrive at line rate and the trace would say nothing.
    super(reason + " at byte " + offset + ": " + detail, null, false, false);
    this.reason = reason;
    this.offset = offset;
  }

  public Reason reason() {
    return reason;
  }

  /** The offset of the offending field from the start of the encoded event. */
  public int offset() {
    return offset;
  }
}
