package org.netpubsub.content.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.netpubsub.content.schema.Schema;

class EventCodecPropertiesTest {

  @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
  void encodedEventsDecodeToThemselves(@ForAll("events") Event event) throws DecodeException {
    EventCodec codec = new EventCodec(event.schema());
    byte[] bytes = codec.encode(event);
    assertThat(bytes).hasSize(codec.encodedSize(event));
    assertThat(codec.decode(bytes)).isEqualTo(event);
    assertThat(EventCodec.peekHeader(bytes))
        .isEqualTo(
            new EventHeader(
                1,
                event.schema().id(),
                event.publisherId(),
                event.sequence(),
                event.timestampNanos()));
    ByteBuffer buf = ByteBuffer.allocate(bytes.length + 3).position(3);
    codec.encode(event, buf);
    assertThat(codec.decode(buf.flip().position(3))).isEqualTo(event);
  }

  @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
  void randomBytesDecodeOrFailTyped(
      @ForAll("smallSchemas") Schema schema,
      @ForAll("noise") byte[] tail,
      @ForAll boolean withValidHeader) {
    EventCodec codec = new EventCodec(schema);
    byte[] bytes = tail;
    if (withValidHeader) {
      // A valid header gets the noise past the header checks, into the values.
      ByteBuffer b = ByteBuffer.allocate(6 + tail.length);
      b.put((byte) 1).put((byte) 0).putInt(schema.id()).put(tail);
      bytes = b.array();
    }
    decodesCanonicallyOrFails(codec, bytes);
  }

  @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
  void mutatedEncodingsDecodeCanonicallyOrFailTyped(
      @ForAll("events") Event event, @ForAll("mutations") List<Mutation> mutations) {
    EventCodec codec = new EventCodec(event.schema());
    byte[] bytes = codec.encode(event);
    for (Mutation m : mutations) {
      bytes = m.apply(bytes);
    }
    String outcome = decodesCanonicallyOrFails(codec, bytes);
    Statistics.label("outcome").collect(outcome.equals("decoded") ? "decoded" : "failed");
    Statistics.label("outcome")
        .coverage(
            c -> {
              c.check("decoded").percentage(p -> p > 2);
              c.check("failed").percentage(p -> p > 20);
            });
  }

  /** Decodes; an event must re-encode to the same bytes; any failure must be a DecodeException. */
  private static String decodesCanonicallyOrFails(EventCodec codec, byte[] bytes) {
    try {
      Event decoded = codec.decode(bytes);
      assertThat(codec.encode(decoded)).isEqualTo(bytes);
      return "decoded";
    } catch (DecodeException e) {
      assertThat(e.offset()).isBetween(0, bytes.length);
      assertThat(e.reason()).isNotNull();
      return e.reason().name();
    }
  }

  /** One edit of an encoded event; positions are taken modulo the current length. */
  record Mutation(int kind, int where, int value) {
    private static final byte[][] HUGE_VARINTS = {
      {-1, -1, -1, -1, -1, -1, -1, -1, -1, 1}, // 2^64 - 1
      {-1, -1, -1, -1, 15}, // 2^32 - 1
      {-1, -1, 3}, // 65535
      {-128, 0}, // a non-minimal zero
      {-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}, // never ends within 10 bytes
    };

    byte[] apply(byte[] in) {
      int n = in.length;
      List<Byte> out = new ArrayList<>();
      for (byte b : in) {
        out.add(b);
      }
      switch (kind) {
        case 0 -> {
          if (n > 0) {
            out.set(where % n, (byte) (in[where % n] ^ (1 << (value & 7))));
          }
        }
        case 1 -> out.subList(where % (n + 1), n).clear();
        case 2 -> out.add(where % (n + 1), (byte) value);
        case 3 -> {
          if (n > 0) {
            out.remove(where % n);
          }
        }
        case 4 -> {
          // Overwrite what is likely a length or value field with a huge varint.
          byte[] v = HUGE_VARINTS[Math.floorMod(value, HUGE_VARINTS.length)];
          int at = Math.min(n, 30 + where % Math.max(1, n - 29));
          for (int i = 0; i < v.length; i++) {
            if (at + i < out.size()) {
              out.set(at + i, v[i]);
            } else {
              out.add(v[i]);
            }
          }
        }
        default -> {
          if (n > 0) {
            out.set(where % n, (byte) value);
          }
        }
      }
      byte[] result = new byte[out.size()];
      for (int i = 0; i < result.length; i++) {
        result[i] = out.get(i);
      }
      return result;
    }
  }

  @Provide
  Arbitrary<Event> events() {
    return EventArbitraries.events(2000);
  }

  @Provide
  Arbitrary<byte[]> noise() {
    return EventArbitraries.randomBytes(300);
  }

  @Provide
  Arbitrary<Schema> smallSchemas() {
    return EventArbitraries.smallSchemas();
  }

  @Provide
  Arbitrary<List<Mutation>> mutations() {
    // Mostly late positions too: edits in the values matter more than in the fixed header.
    return Combinators.combine(
            Arbitraries.integers().between(0, 5),
            Arbitraries.integers().between(0, 1 << 20),
            Arbitraries.integers().between(-128, 255))
        .as(Mutation::new)
        .list()
        .ofMinSize(1)
        .ofMaxSize(4);
  }
}
