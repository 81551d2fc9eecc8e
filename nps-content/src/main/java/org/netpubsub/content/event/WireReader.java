package org.netpubsub.content.event;

import static org.netpubsub.content.event.DecodeException.Reason.INVALID_UTF8;
import static org.netpubsub.content.event.DecodeException.Reason.LENGTH_EXCEEDS_INPUT;
import static org.netpubsub.content.event.DecodeException.Reason.NON_CANONICAL_VARINT;
import static org.netpubsub.content.event.DecodeException.Reason.TRUNCATED;
import static org.netpubsub.content.event.DecodeException.Reason.VARINT_TOO_LONG;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A bounds-checked cursor over encoded bytes: every read checks the remaining input first, so
 * hostile lengths fail before anything is allocated. Reads big-endian whatever the buffer's order,
 * and never moves the buffer's own position.
 */
final class WireReader {
  // CharsetDecoder is stateful; one per thread keeps the codec thread-safe without allocating one
  // per string. REPORT (not REPLACE) so that malformed UTF-8 is an error, not a U+FFFD.
  private static final ThreadLocal<CharsetDecoder> UTF8 =
      ThreadLocal.withInitial(
          () ->
              StandardCharsets.UTF_8
                  .newDecoder()
                  .onMalformedInput(CodingErrorAction.REPORT)
                  .onUnmappableCharacter(CodingErrorAction.REPORT));

  private final ByteBuffer buf;
  private final int start;
  private final int limit;
  private int pos;

  WireReader(ByteBuffer buf) {
    this.buf = buf;
    this.start = buf.position();
    this.limit = buf.limit();
    this.pos = start;
  }

  /** Offset from the start of the event. */
  int offset() {
    return pos - start;
  }

  int remaining() {
    return limit - pos;
  }

  int u8(String what) throws DecodeException {
    need(1, what);
    return buf.get(pos++) & 0xFF;
  }

  long fixed(int bytes, String what) throws DecodeException {
    need(bytes, what);
    long v = 0;
    for (int i = 0; i < bytes; i++) {
      v = v << 8 | (buf.get(pos++) & 0xFF);
    }
    return v;
  }

  /** An unsigned LEB128 varint in its shortest form. */
  long varint(String what) throws DecodeException {
    int at = offset();
    long result = 0;
    for (int i = 0; ; i++) {
      if (pos >= limit) {
        throw new DecodeException(TRUNCATED, offset(), "input ends inside " + what);
      }
      int b = buf.get(pos++) & 0xFF;
      if (i == Varint.MAX_BYTES - 1 && b > 1) {
        throw new DecodeException(VARINT_TOO_LONG, at, what + " does not fit 64 bits");
      }
      result |= (long) (b & 0x7F) << (7 * i);
      if ((b & 0x80) == 0) {
        if (b == 0 && i > 0) {
          throw new DecodeException(
              NON_CANONICAL_VARINT, at, what + " has " + (i + 1) + " bytes, more than needed");
        }
        return result;
      }
    }
  }

  /** A length field (read by the caller) checked against what is left, as an int. */
  int length(long length, int at, String what) throws DecodeException {
    if (Long.compareUnsigned(length, remaining()) > 0) {
      throw new DecodeException(
          LENGTH_EXCEEDS_INPUT,
          at,
          what
              + " length "
              + Long.toUnsignedString(length)
              + " exceeds the "
              + remaining()
              + " bytes left");
    }
    return (int) length;
  }

  byte[] bytes(int length) {
    byte[] out = new byte[length];
    buf.get(pos, out);
    pos += length;
    return out;
  }

  String utf8(int length, String what) throws DecodeException {
    ByteBuffer in = buf.slice(pos, length);
    CharsetDecoder decoder = UTF8.get().reset();
    try {
      CharBuffer chars = decoder.decode(in);
      pos += length;
      return chars.toString();
    } catch (CharacterCodingException e) {
      throw new DecodeException(
          INVALID_UTF8, offset() + in.position(), what + " is not well-formed UTF-8");
    }
  }

  private void need(int bytes, String what) throws DecodeException {
    if (remaining() < bytes) {
      throw new DecodeException(TRUNCATED, offset(), "input ends inside " + what);
    }
  }
}
