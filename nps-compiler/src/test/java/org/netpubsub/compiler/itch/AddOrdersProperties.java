package org.netpubsub.compiler.itch;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.content.event.Event;

class AddOrdersProperties {
  static final MessageSpec ITCH = BuiltinSpecs.itch();

  @Property(tries = 500)
  void encodedAddOrdersDecodeToThemselvesAndToTheSpecValues(@ForAll("orders") AddOrder order) {
    byte[] bytes = order.encode();
    assertThat(bytes).hasSize(order.type() == 'A' ? 36 : 40);
    assertThat(AddOrder.decode(bytes, 0, bytes.length)).contains(order);
    long[] values = new long[AddOrders.FIELDS];
    assertThat(AddOrders.decode(bytes, 0, bytes.length, values)).isNull();
    assertThat(values).containsExactly(order.values());
    // the values are exactly what the compiler's QueryField.encode gives for the event
    Event e = AddOrders.toEvent(ITCH.schema(), values);
    assertThat(ITCH.values(e)).containsExactly(values);
    assertThat(e.stringValue(0)).isEqualTo(order.symbol());
  }

  @Property(tries = 2000)
  void printableIsTheNaiveCheck(@ForAll long v) {
    boolean naive = true;
    for (int i = 0; i < 8; i++) {
      int b = (int) (v >>> (8 * i)) & 0xff;
      naive &= b >= 0x20 && b <= 0x7e;
    }
    assertThat(AddOrders.printable(v)).isEqualTo(naive);
  }

  @Property(tries = 2000)
  void printableOnNearlyPrintableBytes(@ForAll("nearlyPrintable") long v) {
    printableIsTheNaiveCheck(v);
  }

  @Test
  void malformedAddOrdersAreTyped() {
    byte[] ok = AddOrder.of("GOOGL", 1_234_500, 100, 'B', 7, 1).encode();
    long[] v = new long[4];
    byte[] side = ok.clone();
    side[AddOrders.SIDE] = 'Q';
    assertThat(AddOrders.decode(side, 0, 36, v)).isEqualTo(Malformation.BAD_SIDE);
    byte[] stock = ok.clone();
    stock[AddOrders.STOCK + 6] = 0x7f;
    assertThat(AddOrders.decode(stock, 0, 36, v)).isEqualTo(Malformation.BAD_STOCK);
    assertThat(AddOrders.decode(ok, 0, 35, v)).isEqualTo(Malformation.BAD_LENGTH);
    byte[] f = ok.clone();
    f[0] = 'F';
    assertThat(AddOrders.decode(f, 0, 36, v)).isEqualTo(Malformation.BAD_LENGTH);
    assertThat(AddOrder.decode(side, 0, 36)).isEmpty();
    assertThat(AddOrders.symbol(AddOrder.stockValue("GOOGL"))).isEqualTo("GOOGL");
    assertThat(AddOrders.symbol(AddOrder.stockValue(""))).isEmpty();
  }

  @Provide
  Arbitrary<Long> nearlyPrintable() {
    // bytes around the edges 0x1f/0x20 and 0x7e/0x7f/0x80, where SWAR tricks go wrong
    return Arbitraries.of(
            (byte) 0x1f,
            (byte) 0x20,
            (byte) 0x41,
            (byte) 0x7e,
            (byte) 0x7f,
            (byte) 0x80,
            (byte) 0xff,
            (byte) 0x00)
        .array(byte[].class)
        .ofSize(8)
        .map(b -> java.nio.ByteBuffer.wrap(b).getLong());
  }

  @Provide
  Arbitrary<AddOrder> orders() {
    return ItchArbitraries.addOrders();
  }
}
