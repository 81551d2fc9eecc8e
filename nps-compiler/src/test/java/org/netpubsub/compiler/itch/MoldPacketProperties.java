package org.netpubsub.compiler.itch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

class MoldPacketProperties {
  static final byte[] SESSION = MoldUdp64.session("NPS1");

  @Property(tries = 500)
  void encodedPacketsParseToTheirMessages(
      @ForAll("messageLists") List<byte[]> messages, @ForAll long sequence) {
    byte[] packet = MoldUdp64.encode(SESSION, sequence, messages);
    byte[] framed = new byte[packet.length + 7];
    System.arraycopy(packet, 0, framed, 3, packet.length);
    MoldPacket p = new MoldPacket();
    assertThat(p.parse(framed, 3, packet.length)).isTrue();
    assertThat(p.malformation()).isNull();
    assertThat(p.sequence()).isEqualTo(sequence);
    assertThat(p.messages()).isEqualTo(messages.size());
    assertThat(p.isHeartbeat()).isEqualTo(messages.isEmpty());
    for (int i = 0; i < messages.size(); i++) {
      assertThat(
              Arrays.copyOfRange(
                  framed, p.messageOffset(i), p.messageOffset(i) + p.messageLength(i)))
          .isEqualTo(messages.get(i));
      assertThat(p.sequenceOf(i)).isEqualTo(sequence + i);
    }
  }

  @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
  void randomBytesParseCanonicallyOrFailTyped(@ForAll("noise") byte[] bytes) {
    parsesCanonicallyOrFails(bytes);
  }

  @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
  void mutatedPacketsParseCanonicallyOrFailTyped(
      @ForAll("messageLists") List<byte[]> messages,
      @ForAll("mutations") List<Mutation> mutations) {
    byte[] bytes = MoldUdp64.encode(SESSION, 1, messages);
    for (Mutation m : mutations) {
      bytes = m.apply(bytes);
    }
    String outcome = parsesCanonicallyOrFails(bytes);
    Statistics.label("outcome").collect(outcome.equals("parsed") ? "parsed" : "failed");
    Statistics.label("outcome")
        .coverage(
            c -> {
              c.check("parsed").percentage(p -> p > 2);
              c.check("failed").percentage(p -> p > 20);
            });
  }

  /** A parsed packet re-encodes to the same bytes; a failure is typed; the splitter agrees. */
  static String parsesCanonicallyOrFails(byte[] bytes) {
    MoldPacket p = new MoldPacket();
    boolean ok = p.parse(bytes, 0, bytes.length);
    PortSplitter splitter = PortSplitterProperties.splitter("price > 5 : fwd(1)\ntrue : fwd(2)");
    assertThat(splitter.split(bytes, 0, bytes.length)).isEqualTo(ok);
    if (!ok) {
      assertThat(p.malformation()).isNotNull();
      assertThat(p.malformation().scope()).isEqualTo(Malformation.Scope.PACKET);
      assertThat(p.messages()).isZero();
      assertThat(splitter.malformed(p.malformation())).isEqualTo(1);
      return p.malformation().name();
    }
    List<byte[]> messages = new ArrayList<>();
    for (int i = 0; i < p.messages(); i++) {
      messages.add(
          Arrays.copyOfRange(bytes, p.messageOffset(i), p.messageOffset(i) + p.messageLength(i)));
    }
    byte[] again =
        p.isEndOfSession()
            ? MoldUdp64.endOfSession(Arrays.copyOf(bytes, 10), p.sequence())
            : MoldUdp64.encode(Arrays.copyOf(bytes, 10), p.sequence(), messages);
    assertThat(again).isEqualTo(bytes);
    return "parsed";
  }

  @Test
  void eachFramingFaultHasItsReason() {
    MoldPacket p = new MoldPacket();
    byte[] two = MoldUdp64.encode(SESSION, 10, List.of(new byte[] {'S', 1}, new byte[] {'z'}));
    assertThat(p.parse(two, 0, two.length)).isTrue();
    assertThat(p.parse(two, 0, 19)).isFalse();
    assertThat(p.malformation()).isEqualTo(Malformation.TRUNCATED_HEADER);
    assertThat(p.parse(two, 0, 21)).isFalse();
    assertThat(p.malformation()).isEqualTo(Malformation.TRUNCATED_BLOCK);
    assertThat(p.parse(two, 0, 23)).isFalse();
    assertThat(p.malformation()).isEqualTo(Malformation.BLOCK_BEYOND_PACKET);
    assertThat(p.parse(two, 0, 24)).isFalse(); // one whole block of two
    assertThat(p.malformation()).isEqualTo(Malformation.COUNT_MISMATCH);
    byte[] longer = Arrays.copyOf(two, two.length + 1);
    assertThat(p.parse(longer, 0, longer.length)).isFalse();
    assertThat(p.malformation()).isEqualTo(Malformation.TRAILING_BYTES);
    byte[] heartbeat = MoldUdp64.heartbeat(SESSION, 12);
    assertThat(p.parse(heartbeat, 0, 20)).isTrue();
    assertThat(p.isHeartbeat()).isTrue();
    assertThat(p.sequence()).isEqualTo(12);
    byte[] end = MoldUdp64.endOfSession(SESSION, 12);
    assertThat(p.parse(end, 0, 20)).isTrue();
    assertThat(p.isEndOfSession()).isTrue();
    assertThat(p.messages()).isZero();
    byte[] endWithData = Arrays.copyOf(end, 23);
    assertThat(p.parse(endWithData, 0, 23)).isFalse();
    assertThat(p.malformation()).isEqualTo(Malformation.TRAILING_BYTES);
  }

  /** One edit of a packet; positions are taken modulo the current length. */
  record Mutation(int kind, int where, int value) {
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
          // the count field, where framing faults hide
          if (n >= 20) {
            out.set(18 + (where & 1), (byte) value);
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
  Arbitrary<List<byte[]>> messageLists() {
    return ItchArbitraries.messageLists(40);
  }

  @Provide
  Arbitrary<byte[]> noise() {
    Arbitrary<byte[]> raw = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
    // noise behind a plausible header, so that it reaches the blocks
    Arbitrary<byte[]> headed =
        Combinators.combine(raw, Arbitraries.integers().between(0, 12))
            .as(
                (b, count) -> {
                  byte[] out = Arrays.copyOf(MoldUdp64.heartbeat(SESSION, 1), 20 + b.length);
                  out[19] = count.byteValue();
                  System.arraycopy(b, 0, out, 20, b.length);
                  return out;
                });
    return Arbitraries.oneOf(raw, headed);
  }

  @Provide
  Arbitrary<List<Mutation>> mutations() {
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
