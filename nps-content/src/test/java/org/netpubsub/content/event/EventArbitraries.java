package org.netpubsub.content.event;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.netpubsub.content.schema.Attribute;
import org.netpubsub.content.schema.IntAttribute;
import org.netpubsub.content.schema.Schema;
import org.netpubsub.content.schema.SchemaArbitraries;
import org.netpubsub.content.schema.StringAttribute;

/** jqwik generators of valid events: edge values of every domain, multi-byte and 4-byte UTF-8. */
public final class EventArbitraries {
  private EventArbitraries() {}

  /** Random schemas with short strings, so that events stay well under a datagram. */
  public static Arbitrary<Schema> smallSchemas() {
    return SchemaArbitraries.schemas(8, 40);
  }

  /** Events of random small schemas, payloads 0..{@code maxPayload} bytes. */
  public static Arbitrary<Event> events(int maxPayload) {
    return smallSchemas().flatMap(s -> events(s, maxPayload));
  }

  public static Arbitrary<Event> events(Schema schema, int maxPayload) {
    List<Arbitrary<Object>> values = new ArrayList<>();
    for (Attribute a : schema.attributes()) {
      values.add(
          switch (a) {
            case IntAttribute i -> ints(i).map(v -> (Object) v);
            case StringAttribute s -> strings(s.maxLength()).map(v -> (Object) v);
          });
    }
    Arbitrary<byte[]> payloads =
        Arbitraries.frequencyOf(
            Tuple.of(1, Arbitraries.just(new byte[0])), Tuple.of(3, randomBytes(maxPayload)));
    return Combinators.combine(
            Combinators.combine(values).as(List::copyOf),
            payloads,
            SchemaArbitraries.edgyLongs(),
            SchemaArbitraries.edgyLongs(),
            SchemaArbitraries.edgyLongs())
        .as(
            (vals, payload, publisher, sequence, timestamp) -> {
              Event.Builder b = Event.builder(schema);
              for (Attribute a : schema.attributes()) {
                Object v = vals.get(a.position());
                if (v instanceof Long l) {
                  b.set(a, l);
                } else {
                  b.set(a, (String) v);
                }
              }
              return b.payload(payload)
                  .publisherId(publisher)
                  .sequence(sequence)
                  .timestampNanos(timestamp)
                  .build();
            });
  }

  /**
   * Byte arrays of 0..{@code maxLength} random bytes, drawn from a seed: much cheaper than jqwik's
   * element-wise arrays, whose shrinking the codec properties do not need.
   */
  public static Arbitrary<byte[]> randomBytes(int maxLength) {
    return Combinators.combine(Arbitraries.integers().between(0, maxLength), Arbitraries.longs())
        .as(
            (length, seed) -> {
              byte[] bytes = new byte[length];
              new Random(seed).nextBytes(bytes);
              return bytes;
            });
  }

  /** Values of the domain, biased to its ends. */
  public static Arbitrary<Long> ints(IntAttribute a) {
    long min = a.min();
    long max = a.max();
    return Arbitraries.frequencyOf(
        Tuple.of(2, Arbitraries.longs().between(min, max)),
        Tuple.of(
            1,
            Arbitraries.of(
                min,
                max,
                min < max ? min + 1 : min,
                min < max ? max - 1 : max,
                Math.max(min, Math.min(max, 0L)))));
  }

  /**
   * Strings of at most {@code maxBytes} UTF-8 bytes mixing ASCII, 2- and 3-byte characters and
   * supplementary characters (surrogate pairs).
   */
  public static Arbitrary<String> strings(int maxBytes) {
    Arbitrary<Integer> codePoints =
        Arbitraries.frequencyOf(
            Tuple.of(4, Arbitraries.integers().between(0x20, 0x7E)),
            Tuple.of(1, Arbitraries.integers().between(0, 0x1F)),
            Tuple.of(2, Arbitraries.integers().between(0x80, 0x7FF)),
            Tuple.of(
                2,
                Arbitraries.integers()
                    .between(0x800, 0xFFFF)
                    .filter(c -> !Character.isSurrogate((char) (int) c))),
            Tuple.of(2, Arbitraries.integers().between(0x10000, 0x10FFFF)));
    return codePoints
        .list()
        .ofMaxSize(maxBytes)
        .map(
            cps -> {
              StringBuilder sb = new StringBuilder();
              int bytes = 0;
              for (int cp : cps) {
                int n = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
                if (bytes + n > maxBytes) {
                  break;
                }
                sb.appendCodePoint(cp);
                bytes += n;
              }
              return sb.toString();
            });
  }
}
