package org.netpubsub.compiler.itch;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/** jqwik generators of ITCH messages: valid Add Orders, other types, and malformed messages. */
final class ItchArbitraries {
  static final List<String> SYMBOLS = List.of("GOOGL", "AAPL", "MSFT", "IBM", "A", "ZZZZZZZZ");

  private ItchArbitraries() {}

  static Arbitrary<AddOrder> addOrders() {
    Arbitrary<Long> uint32 =
        Arbitraries.frequencyOf(
            Tuple.of(3, Arbitraries.longs().between(0, 20_000_000)), // the ITCH model's prices
            Tuple.of(1, Arbitraries.longs().between(0, 0xffff_ffffL)),
            Tuple.of(1, Arbitraries.of(0L, 1L, 100L, 0xffff_ffffL, 0x8000_0000L)));
    Arbitrary<Long> stock =
        Arbitraries.oneOf(
            Arbitraries.of(SYMBOLS).map(AddOrder::stockValue),
            Arbitraries.integers()
                .between(0x20, 0x7e)
                .list()
                .ofSize(8)
                .map(
                    l -> {
                      long v = 0;
                      for (int b : l) {
                        v = v << 8 | b;
                      }
                      return v;
                    }));
    return Combinators.combine(
            Arbitraries.of((byte) 'A', (byte) 'F'),
            Arbitraries.integers().between(0, 0xffff),
            Arbitraries.longs().between(0, (1L << 48) - 1),
            Arbitraries.longs(),
            Arbitraries.of((byte) 'B', (byte) 'S'),
            uint32,
            stock,
            uint32)
        .flatAs(
            (type, locate, ts, ref, side, shares, st, price) ->
                Arbitraries.integers()
                    .map(
                        mpid ->
                            new AddOrder(
                                type,
                                locate,
                                locate ^ 0x55,
                                ts,
                                ref,
                                side,
                                shares,
                                st,
                                price,
                                type == 'F' ? mpid : 0)));
  }

  /** One message of any kind: mostly Add Orders near the given symbols, some others and junk. */
  static Arbitrary<byte[]> messages() {
    Arbitrary<byte[]> add = addOrders().map(AddOrder::encode);
    Arbitrary<byte[]> other =
        Arbitraries.of('S', 'E', 'X', 'D', 'U', 'P', 'R', 'I')
            .map(
                t -> {
                  byte[] m = new byte[ItchMessageTypes.length((byte) (char) t)];
                  m[0] = (byte) (char) t;
                  return m;
                });
    Arbitrary<byte[]> unknown =
        Arbitraries.bytes()
            .array(byte[].class)
            .ofMinSize(1)
            .ofMaxSize(60)
            .map(
                b -> {
                  b[0] = 'z'; // not an ITCH 5.0 type
                  return b;
                });
    Arbitrary<byte[]> malformed =
        Combinators.combine(addOrders(), Arbitraries.integers().between(0, 3))
            .as(
                (o, how) -> {
                  byte[] m = o.encode();
                  switch (how) {
                    case 0 -> m[AddOrders.SIDE] = 'Q';
                    case 1 -> m[AddOrders.STOCK + 3] = 0x05;
                    case 2 -> m = java.util.Arrays.copyOf(m, m.length - 1);
                    default -> m = new byte[0];
                  }
                  return m;
                });
    return Arbitraries.frequencyOf(
        Tuple.of(12, add), Tuple.of(4, other), Tuple.of(1, unknown), Tuple.of(1, malformed));
  }

  /** Lists of 0..n messages. */
  static Arbitrary<List<byte[]>> messageLists(int n) {
    return messages().list().ofMinSize(0).ofMaxSize(n).map(ArrayList::new);
  }
}
