package org.netpubsub.compiler.itch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class MoldBatcherTest {
  static final byte[] SESSION = MoldUdp64.session("BATCH");

  @Property(tries = 100)
  void packetsRespectTheLimitsAndNumberEveryMessageOnce(
      @ForAll @IntRange(min = 1, max = 50) int perPacket,
      @ForAll @IntRange(min = MoldBatcher.MIN_PAYLOAD, max = 1500) int payload,
      @ForAll @IntRange(min = 0, max = 700) int messages,
      @ForAll long seed) {
    List<byte[]> packets = new ArrayList<>();
    MoldBatcher b =
        new MoldBatcher(
            SESSION,
            1,
            perPacket,
            payload,
            (buf, off, len) -> packets.add(Arrays.copyOfRange(buf, off, off + len)));
    ItchFeedGenerator feed =
        new ItchFeedGenerator(
            org.netpubsub.content.workload.ItchModel.Variant.SIMPLE, seed, messages);
    List<byte[]> sent = new ArrayList<>();
    byte[] m = new byte[64];
    while (feed.hasNext()) {
      int len = feed.next(m, 0);
      sent.add(Arrays.copyOf(m, len));
      b.add(m, 0, len);
    }
    b.flush();
    assertThat(b.nextSequence()).isEqualTo(1 + messages);
    MoldPacket p = new MoldPacket();
    List<byte[]> got = new ArrayList<>();
    long next = 1;
    for (byte[] packet : packets) {
      assertThat(p.parse(packet, 0, packet.length)).isTrue();
      assertThat(packet.length).isLessThanOrEqualTo(payload);
      assertThat(p.messages()).isBetween(1, perPacket);
      assertThat(p.sequence()).isEqualTo(next);
      next += p.messages();
      for (int i = 0; i < p.messages(); i++) {
        got.add(
            Arrays.copyOfRange(
                packet, p.messageOffset(i), p.messageOffset(i) + p.messageLength(i)));
      }
    }
    assertThat(got).usingElementComparator(Arrays::compare).containsExactlyElementsOf(sent);
    assertThat(b.packets()).isEqualTo(packets.size());
  }

  @Test
  void controlPacketsAndOversizeMessages() {
    List<byte[]> packets = new ArrayList<>();
    MoldBatcher b =
        new MoldBatcher(
            SESSION,
            5,
            10,
            MoldBatcher.MIN_PAYLOAD,
            (buf, off, len) -> packets.add(Arrays.copyOfRange(buf, off, off + len)));
    b.add(new byte[] {'S', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 'O'}, 0, 12);
    b.add(new byte[500], 0, 500); // too big for the limit: alone
    b.heartbeat();
    b.endOfSession();
    assertThat(packets).hasSize(4);
    MoldPacket p = new MoldPacket();
    assertThat(p.parse(packets.get(1), 0, packets.get(1).length)).isTrue();
    assertThat(p.messageLength(0)).isEqualTo(500);
    assertThat(p.sequence()).isEqualTo(6);
    assertThat(p.parse(packets.get(2), 0, 20)).isTrue();
    assertThat(p.isHeartbeat()).isTrue();
    assertThat(p.sequence()).isEqualTo(7);
    assertThat(p.parse(packets.get(3), 0, 20)).isTrue();
    assertThat(p.isEndOfSession()).isTrue();
    assertThatThrownBy(() -> new MoldBatcher(SESSION, 1, 0, 1500, (x, y, z) -> {}))
        .hasMessageContaining("messages per packet");
    assertThatThrownBy(() -> new MoldBatcher(SESSION, 1, 5, 40, (x, y, z) -> {}))
        .hasMessageContaining("payload limit");
    assertThatThrownBy(() -> MoldUdp64.session("ELEVEN CHARS")).hasMessageContaining("at most 10");
  }
}
