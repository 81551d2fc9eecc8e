package org.netpubsub.compiler.itch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import net.jqwik.api.Example;
import org.netpubsub.content.fuzz.Fuzz;

/**
 * Fuzz target: the MoldUDP64 framing ({@link MoldPacket}), the Add Order decoders ({@link
 * AddOrders}, {@link AddOrder}) on every message of a packet, and the ITCH file framing ({@link
 * ItchFileReader}) on the same bytes fed in two pieces. Malformed input is reported as a {@link
 * Malformation}, never thrown; a packet that parses encodes back to its bytes, and an Add Order
 * that decodes encodes back to its message.
 */
public class ItchFuzzTest {
  public static void fuzzerTestOneInput(byte[] data) {
    accept(data);
  }

  static boolean accept(byte[] data) {
    ItchFileReader file = new ItchFileReader();
    int half = data.length / 2;
    long[] framed = {0};
    ItchFileReader.MessageSink count = (b, o, l) -> framed[0]++;
    file.feed(data, 0, half, count);
    file.feed(data, half, data.length - half, count);
    file.finish();
    assertThat(file.messages()).isEqualTo(framed[0]);
    MoldPacket p = new MoldPacket();
    if (!p.parse(data, 0, data.length)) {
      assertThat(p.malformation()).isNotNull();
      assertThat(p.messages()).isZero();
      return false;
    }
    List<byte[]> messages = new ArrayList<>();
    long[] values = new long[AddOrders.FIELDS];
    for (int i = 0; i < p.messages(); i++) {
      byte[] m =
          Arrays.copyOfRange(data, p.messageOffset(i), p.messageOffset(i) + p.messageLength(i));
      messages.add(m);
      Optional<AddOrder> order = AddOrder.decode(m, 0, m.length);
      if (m.length > 0 && ItchMessageTypes.isAddOrder(m[0])) {
        assertThat(order.isPresent()).isEqualTo(AddOrders.decode(m, 0, m.length, values) == null);
      }
      order.ifPresent(o -> assertThat(o.encode()).isEqualTo(m));
    }
    if (!p.isEndOfSession()) {
      byte[] session = Arrays.copyOf(data, 10);
      assertThat(MoldUdp64.encode(session, p.sequence(), messages)).isEqualTo(data);
    }
    return true;
  }

  static List<byte[]> seeds() {
    List<byte[]> out = new ArrayList<>();
    Random random = new Random(27);
    var lists = ItchArbitraries.messageLists(6).generator(100);
    for (int i = 0; i < 20; i++) {
      out.add(MoldUdp64.encode(MoldPacketProperties.SESSION, i + 1, lists.next(random).value()));
    }
    out.add(MoldUdp64.heartbeat(MoldPacketProperties.SESSION, 9));
    out.add(MoldUdp64.endOfSession(MoldPacketProperties.SESSION, 9));
    return out;
  }

  @Example
  void everyPacketParsesOrIsReportedMalformed() {
    Fuzz.run("itch", ItchFuzzTest::accept, seeds(), 3000);
  }
}
