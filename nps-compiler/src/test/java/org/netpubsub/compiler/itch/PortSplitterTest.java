package org.netpubsub.compiler.itch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.rules.RuleParser;
import org.netpubsub.compiler.spec.BuiltinSpecs;

class PortSplitterTest {
  static final byte[] SESSION = MoldUdp64.session("T");

  @Test
  void runsKeepTheirSequenceNumbersAcrossAGap() {
    PortSplitter s =
        PortSplitterProperties.splitter(
            """
            stock == "GOOGL" : fwd(1)
            stock == "MSFT" : fwd(2)
            """);
    byte[] packet =
        MoldUdp64.encode(
            SESSION,
            100,
            List.of(
                AddOrder.of("GOOGL", 1, 1, 'B', 1, 0).encode(),
                AddOrder.of("GOOGL", 1, 1, 'B', 2, 0).encode(),
                AddOrder.of("MSFT", 1, 1, 'S', 3, 0).encode(),
                AddOrder.of("GOOGL", 1, 1, 'B', 4, 0).encode(),
                new byte[] {'D', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9}));
    assertThat(s.split(packet, 0, packet.length)).isTrue();
    assertThat(s.runPort(0)).as("runs are cut on first use").isEqualTo(1);
    assertThat(s.runs()).isEqualTo(3);
    assertThatThrownBy(() -> s.runPort(3)).isInstanceOf(IndexOutOfBoundsException.class);
    // port 1: seq 100–101, then 103; port 2: seq 102
    assertThat(List.of(s.runPort(0), s.runPort(1), s.runPort(2))).containsExactly(1, 1, 2);
    assertThat(List.of(s.runSequence(0), s.runSequence(1), s.runSequence(2)))
        .containsExactly(100L, 103L, 102L);
    assertThat(List.of(s.runMessages(0), s.runMessages(1), s.runMessages(2)))
        .containsExactly(2, 1, 1);
    assertThat(s.runLength(0)).isEqualTo(20 + 2 * 38);
    assertThat(s.droppedMessages()).isEqualTo(1); // the delete: other messages go nowhere
    assertThat(s.otherMessages()).isEqualTo(1);
    assertThat(s.portPackets(0)).isEqualTo(2);
    assertThat(s.portBytes(0)).isEqualTo(2 * 20 + 3 * 38);
  }

  /** The run counters flush every 255 additions (byte lanes); counts must survive many flushes. */
  @Test
  void countsSurviveTheRunCounterFlushes() {
    PortSplitter s =
        PortSplitterProperties.splitter(
            """
            price > 100 : fwd(1)
            price <= 100 : fwd(1, 2)
            """);
    int perPacket = 30;
    int packets = 2500; // 75 000 messages, 72 500 of them extend port 1's run
    long seq = 1;
    for (int k = 0; k < packets; k++) {
      List<byte[]> m = new ArrayList<>();
      for (int i = 0; i < perPacket; i++) {
        m.add(AddOrder.of("IBM", i % 2 == 0 ? 50 : 500, 1, 'B', seq + i, 0).encode());
      }
      byte[] p = MoldUdp64.encode(SESSION, seq, m);
      seq += perPacket;
      assertThat(s.split(p, 0, p.length)).isTrue();
    }
    assertThat(s.ports()).containsExactly(1, 2);
    assertThat(s.portMessages(0)).isEqualTo((long) packets * perPacket);
    assertThat(s.portPackets(0)).isEqualTo(packets);
    assertThat(s.portMessages(1)).isEqualTo((long) packets * perPacket / 2);
    assertThat(s.portPackets(1)).isEqualTo((long) packets * perPacket / 2);
    assertThat(s.portBytes(1)).isEqualTo((long) packets * perPacket / 2 * (20 + 38));
  }

  @Test
  void controlPacketsGoToEveryPortAndOnlyItchTablesAreAccepted() {
    PortSplitter s = PortSplitterProperties.splitter("price > 1 : fwd(4, 9)");
    byte[] hb = MoldUdp64.heartbeat(SESSION, 77);
    assertThat(s.split(hb, 0, hb.length)).isTrue();
    assertThat(s.runs()).isEqualTo(2);
    List<String> got = new ArrayList<>();
    s.emit((port, b, off, len) -> got.add(port + ":" + len + ":" + b[off + 19]));
    assertThat(got).containsExactly("4:20:0", "9:20:0");
    assertThat(s.portPackets(1)).isEqualTo(1);
    assertThat(s.controlPackets()).isEqualTo(1);
    var intSpec = BuiltinSpecs.intReports();
    var c =
        RuleCompiler.compile(
            intSpec,
            RuleParser.parse(intSpec.schema(), "int.switch_id == 2 : fwd(1)"),
            CompileOptions.EXACT);
    assertThatThrownBy(() -> PortSplitter.of(c.pipeline(), OtherMessages.DROP))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("itch spec");
    assertThat(OtherMessages.parse("all-ports")).isEqualTo(OtherMessages.ALL_PORTS);
    assertThatThrownBy(() -> OtherMessages.parse("some")).hasMessageContaining("drop or all-ports");
  }
}
