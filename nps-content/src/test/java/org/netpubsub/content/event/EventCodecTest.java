package org.netpubsub.content.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.event.DecodeException.Reason;
import org.netpubsub.content.schema.Schema;

class EventCodecTest {
  private static final HexFormat HEX = HexFormat.of();
  private final Schema pleroma =
      Schema.builder("pleroma-example").intAttribute("P", 0, 99).intAttribute("V", 0, 99).build();
  private final Schema quotes =
      Schema.builder("quotes")
          .stringAttribute("symbol", 8)
          .intAttribute("price", 1000, 100_000)
          .intAttribute("delta", Long.MIN_VALUE, Long.MAX_VALUE)
          .build();
  private final EventCodec codec = new EventCodec(quotes);

  private Event quote(String symbol, long price, long delta) {
    return Event.builder(quotes)
        .set("symbol", symbol)
        .set("price", price)
        .set("delta", delta)
        .payload(new byte[] {1, 2, 3})
        .publisherId(-1)
        .sequence(42)
        .timestampNanos(-5)
        .build();
  }

  @Test
  void layoutOfThePaperExample() throws DecodeException {
    Event e =
        Event.builder(pleroma)
            .set("P", 65)
            .set("V", 55)
            .payload("hi".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
            .publisherId(7)
            .sequence(42)
            .timestampNanos(1000)
            .build();
    byte[] bytes = new EventCodec(pleroma).encode(e);
    assertThat(HEX.formatHex(bytes))
        .isEqualTo(
            "0100"
                + String.format("%08x", pleroma.id())
                + "0000000000000007"
                + "000000000000002a"
                + "00000000000003e8"
                + "41" // P = 65 - 0
                + "37" // V = 55 - 0
                + "026869"); // payload "hi"
    assertThat(new EventCodec(pleroma).decode(bytes)).isEqualTo(e);
    assertThat(EventCodec.peekHeader(bytes))
        .isEqualTo(new EventHeader(1, pleroma.id(), 7, 42, 1000));
  }

  @Test
  void intsAreOffsetsFromMinWithoutOverflow() throws DecodeException {
    byte[] low = codec.encode(quote("", 1000, Long.MIN_VALUE));
    // price 1000 → offset 0 (1 byte); delta MIN → offset 0 (1 byte).
    assertThat(Arrays.copyOfRange(low, 30, low.length)).containsExactly(0, 0, 0, 3, 1, 2, 3);
    byte[] high = codec.encode(quote("", 100_000, Long.MAX_VALUE));
    // delta MAX → offset 2^64 - 1: ten bytes, the last one 0x01.
    assertThat(HEX.formatHex(high, 30, high.length))
        .isEqualTo("00" + "b88506" + "ffffffffffffffffff01" + "03010203");
    assertThat(codec.decode(high)).isEqualTo(quote("", 100_000, Long.MAX_VALUE));
  }

  @Test
  void encodesIntoABufferAtItsPositionWhateverItsByteOrder() {
    Event e = quote("IBM", 12_345, -7);
    byte[] expected = codec.encode(e);
    ByteBuffer buf = ByteBuffer.allocate(200).order(ByteOrder.LITTLE_ENDIAN).position(5);
    assertThat(codec.encode(e, buf)).isEqualTo(expected.length);
    assertThat(buf.position()).isEqualTo(5 + expected.length);
    assertThat(Arrays.copyOfRange(buf.array(), 5, 5 + expected.length)).isEqualTo(expected);
    ByteBuffer small = ByteBuffer.allocate(expected.length - 1);
    assertThatThrownBy(() -> codec.encode(e, small)).isInstanceOf(BufferOverflowException.class);
    assertThat(small.position()).isZero();
  }

  @Test
  void decodesTheRemainingBytesOfABuffer() throws DecodeException {
    byte[] bytes = codec.encode(quote("Ä😀x", 2000, 0));
    ByteBuffer buf = ByteBuffer.allocate(bytes.length + 4).position(4);
    buf.put(bytes).position(4);
    assertThat(codec.decode(buf)).isEqualTo(quote("Ä😀x", 2000, 0));
    assertThat(buf.position()).isEqualTo(buf.limit());
    ByteBuffer bad = ByteBuffer.wrap(bytes, 0, bytes.length - 1);
    assertThatThrownBy(() -> codec.decode(bad)).isInstanceOf(DecodeException.class);
    assertThat(bad.position()).isZero();
  }

  @Test
  void refusesEventsItCannotEncode() {
    Event big = Event.builder(pleroma).set("P", 1).set("V", 2).payload(new byte[64_970]).build();
    assertThatThrownBy(() -> new EventCodec(pleroma).encode(big))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("event encodes to 65005 bytes, more than the 65000");
    Event fits = Event.builder(pleroma).set("P", 1).set("V", 2).payload(new byte[64_965]).build();
    assertThat(new EventCodec(pleroma).encode(fits)).hasSize(EventCodec.MAX_SIZE);
    assertThatThrownBy(() -> codec.encode(fits))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("event of schema pleroma-example given to the codec of quotes");
    Event lone = quote("a\uD800", 2000, 0);
    assertThatThrownBy(() -> codec.encode(lone))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("symbol holds an unpaired surrogate");
  }

  @Test
  void everyReasonWithItsOffset() {
    byte[] ok = codec.encode(quote("IBM", 1000, 0));
    String hex = HEX.formatHex(ok);
    int values = 30;
    expect(new byte[0], Reason.TRUNCATED, 0);
    expect(Arrays.copyOf(ok, 29), Reason.TRUNCATED, 29);
    expect(with(ok, 0, 2), Reason.UNSUPPORTED_VERSION, 0);
    expect(new byte[] {2}, Reason.UNSUPPORTED_VERSION, 0);
    expect(with(ok, 1, 0x80), Reason.BAD_FLAGS, 1);
    expect(with(ok, 2, ok[2] ^ 1), Reason.SCHEMA_MISMATCH, 2);
    // symbol length 9 > max_length 8
    expect(with(ok, values, 9), Reason.STRING_TOO_LONG, values);
    // 0xFF is never valid UTF-8
    expect(with(ok, values + 2, 0xFF), Reason.INVALID_UTF8, values + 2);
    // overlong encoding of '/' (C0 AF) and an encoded surrogate (ED A0 80)
    expect(
        HEX.parseHex(hex.substring(0, 60) + "02c0af" + hex.substring(68)), Reason.INVALID_UTF8, 31);
    expect(
        HEX.parseHex(hex.substring(0, 60) + "03eda080" + hex.substring(68)),
        Reason.INVALID_UTF8,
        31);
    // price offset 99001 > 99000
    expect(
        HEX.parseHex(hex.substring(0, 68) + "b98506" + hex.substring(70)),
        Reason.VALUE_OUT_OF_DOMAIN,
        34);
    // price as a two-byte zero: not canonical
    expect(
        HEX.parseHex(hex.substring(0, 68) + "8000" + hex.substring(70)),
        Reason.NON_CANONICAL_VARINT,
        34);
    // delta with 11 bytes, and with 10 bytes whose last one overflows 64 bits
    expect(
        HEX.parseHex(hex.substring(0, 70) + "ffffffffffffffffffff01" + hex.substring(72)),
        Reason.VARINT_TOO_LONG,
        35);
    expect(
        HEX.parseHex(hex.substring(0, 70) + "ffffffffffffffffff02" + hex.substring(72)),
        Reason.VARINT_TOO_LONG,
        35);
    // payload length 4 with 3 bytes left; a huge payload length
    expect(with(ok, ok.length - 4, 4), Reason.LENGTH_EXCEEDS_INPUT, ok.length - 4);
    expect(
        HEX.parseHex(hex.substring(0, hex.length() - 8) + "ffffffff0f"),
        Reason.LENGTH_EXCEEDS_INPUT,
        ok.length - 4);
    // ends inside a varint
    expect(HEX.parseHex(hex.substring(0, 70) + "ff"), Reason.TRUNCATED, 36);
    expect(Arrays.copyOf(ok, ok.length + 1), Reason.TRAILING_BYTES, ok.length);
    expect(new byte[EventCodec.MAX_SIZE + 1], Reason.TOO_LARGE, EventCodec.MAX_SIZE);
  }

  @Test
  void peekHeaderChecksOnlyTheHeader() throws DecodeException {
    byte[] ok = codec.encode(quote("IBM", 1000, 0));
    byte[] otherSchema = with(Arrays.copyOf(ok, 30), 2, 0);
    EventHeader h = EventCodec.peekHeader(otherSchema);
    assertThat(h.publisherId()).isEqualTo(-1);
    assertThat(h.sequence()).isEqualTo(42);
    assertThat(h.timestampNanos()).isEqualTo(-5);
    assertThatThrownBy(() -> EventCodec.peekHeader(Arrays.copyOf(ok, 10)))
        .isInstanceOfSatisfying(
            DecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.TRUNCATED));
    assertThatThrownBy(() -> EventCodec.peekHeader(with(ok, 1, 1)))
        .isInstanceOfSatisfying(
            DecodeException.class, e -> assertThat(e.reason()).isEqualTo(Reason.BAD_FLAGS));
  }

  @Test
  void decodeExceptionMessageNamesReasonAndOffset() {
    DecodeException e = new DecodeException(Reason.TRUNCATED, 12, "input ends inside x");
    assertThat(e).hasMessage("TRUNCATED at byte 12: input ends inside x");
    assertThat(e.getStackTrace()).isEmpty();
  }

  private static byte[] with(byte[] bytes, int index, int value) {
    byte[] copy = bytes.clone();
    copy[index] = (byte) value;
    return copy;
  }

  private void expect(byte[] bytes, Reason reason, int offset) {
    assertThatThrownBy(() -> codec.decode(bytes))
        .isInstanceOfSatisfying(
            DecodeException.class,
            e -> {
              assertThat(e.reason()).as(e.getMessage()).isEqualTo(reason);
              assertThat(e.offset()).as(e.getMessage()).isEqualTo(offset);
            });
  }
}
