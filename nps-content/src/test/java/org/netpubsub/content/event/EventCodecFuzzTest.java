package org.netpubsub.content.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import org.netpubsub.content.fuzz.Fuzz;
import org.netpubsub.content.schema.Schema;

/**
 * Fuzz target: the event codec. Any bytes either decode or are refused with {@link
 * DecodeException}; a decoded event encodes to bytes that decode to the same event. Seeds:
 * encodings of random events of one schema with every attribute type.
 */
public class EventCodecFuzzTest {
  private static final Schema SCHEMA =
      Schema.builder("fuzz")
          .intAttribute("price", 0, 1_000_000)
          .stringAttribute("symbol", 8)
          .intAttribute("wide", Long.MIN_VALUE, Long.MAX_VALUE)
          .stringAttribute("note", 40)
          .build();
  private static final EventCodec CODEC = new EventCodec(SCHEMA);

  public static void fuzzerTestOneInput(byte[] data) {
    accept(data);
  }

  static boolean accept(byte[] data) {
    Event event;
    try {
      event = CODEC.decode(data);
      EventCodec.peekHeader(data);
    } catch (DecodeException e) {
      return false;
    }
    try {
      assertThat(CODEC.decode(CODEC.encode(event))).isEqualTo(event);
    } catch (DecodeException e) {
      throw new AssertionError("a decoded event does not decode again", e);
    }
    return true;
  }

  static List<byte[]> seeds() {
    List<byte[]> out = new ArrayList<>();
    Random random = new Random(27);
    var events = EventArbitraries.events(SCHEMA, 24).generator(100);
    for (int i = 0; i < 30; i++) {
      out.add(CODEC.encode(events.next(random).value()));
    }
    return out;
  }

  @Example
  void everyByteStringDecodesOrIsRefusedTyped() {
    Fuzz.run("event", EventCodecFuzzTest::accept, seeds(), 3000);
  }
}
