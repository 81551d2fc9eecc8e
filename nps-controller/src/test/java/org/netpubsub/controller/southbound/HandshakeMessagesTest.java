package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.projectfloodlight.openflow.protocol.OFBarrierRequest;
import org.projectfloodlight.openflow.protocol.OFFactory;
import org.projectfloodlight.openflow.protocol.OFFeaturesRequest;
import org.projectfloodlight.openflow.protocol.OFHello;
import org.projectfloodlight.openflow.protocol.OFMessage;
import org.projectfloodlight.openflow.protocol.OFPacketInReason;
import org.projectfloodlight.openflow.protocol.OFPortDescStatsRequest;
import org.projectfloodlight.openflow.protocol.OFPortReason;
import org.projectfloodlight.openflow.protocol.OFSetConfig;
import org.projectfloodlight.openflow.protocol.match.MatchField;
import org.projectfloodlight.openflow.types.DatapathId;
import org.projectfloodlight.openflow.types.OFBufferId;
import org.projectfloodlight.openflow.types.OFPort;
import org.projectfloodlight.openflow.types.TableId;
import org.projectfloodlight.openflow.types.U32;
import org.projectfloodlight.openflow.types.U64;

/**
 * The handshake message by message on an embedded channel: what the controller sends at each step,
 * and asynchronous messages that a switch sends before the handshake ends (a port-status older than
 * the port description is dropped; later ones, and packet-ins, arrive after switchConnected, in
 * order).
 */
class HandshakeMessagesTest {
  private static final OFFactory F = OpenFlowTranslator.OF13;

  @Test
  void asynchronousMessagesDuringTheHandshakeArriveAfterConnected() {
    RecordingListener events = new RecordingListener();
    NettyOpenFlowServer server =
        (NettyOpenFlowServer)
            OpenFlowServer.builder().port(0).listener(events).build(); // never started: no socket
    EmbeddedChannel ch = new EmbeddedChannel(new SwitchConnection(server));

    OFHello hello = ch.readOutbound();
    assertThat(hello.getElements()).hasSize(1);
    ch.writeInbound(
        F.buildHello()
            .setXid(1)
            .setElements(
                List.of(F.buildHelloElemVersionbitmap().setBitmaps(List.of(U32.of(0x12))).build()))
            .build());
    OFFeaturesRequest features = ch.readOutbound();

    ch.writeInbound(portStatus(1, false)); // before the port description: stale, dropped
    ch.writeInbound(
        F.buildFeaturesReply()
            .setXid(features.getXid())
            .setDatapathId(DatapathId.of(0x77))
            .setNTables((short) 4)
            .setCapabilities(Set.of())
            .build());
    OFPortDescStatsRequest portDesc = ch.readOutbound();
    ch.writeInbound(
        F.buildPortDescStatsReply()
            .setXid(portDesc.getXid())
            .setEntries(
                List.of(
                    OpenFlowTranslator.toOpenFlow(new PortInfo(1, "p1", 1, true)),
                    OpenFlowTranslator.toOpenFlow(new PortInfo(2, "p2", 2, true))))
            .build());
    OFSetConfig config = ch.readOutbound();
    assertThat(config.getMissSendLen()).isEqualTo(0xffff);
    OFBarrierRequest barrier = ch.readOutbound();

    ch.writeInbound(portStatus(2, false)); // after the description: delivered once connected
    ch.writeInbound(packetIn());
    assertThat(server.switchHandle(0x77)).as("not connected before the barrier reply").isEmpty();
    ch.writeInbound(F.buildBarrierReply().setXid(barrier.getXid()).build());

    SwitchHandle sw = server.switchHandle(0x77).orElseThrow();
    assertThat(sw.numTables()).isEqualTo(4);
    assertThat(sw.ports()).extracting(PortInfo::up).containsExactly(true, false);
    Poll.until("events", Duration.ofSeconds(5), () -> events.log.size() == 3);
    assertThat(events.log)
        .containsExactly(
            "connected 119",
            "port 119 2 MODIFY down",
            "packet-in 119 in_port=3 NO_MATCH table=0 cookie=0");
    assertThat(server.metrics().disconnects(DisconnectReason.PROTOCOL_VIOLATION)).isZero();
    assertThat((OFMessage) ch.readOutbound()).as("nothing else sent").isNull();
    ch.finishAndReleaseAll();
    server.close();
  }

  private static OFMessage portStatus(long port, boolean up) {
    return F.buildPortStatus()
        .setXid(0)
        .setReason(OFPortReason.MODIFY)
        .setDesc(OpenFlowTranslator.toOpenFlow(new PortInfo(port, "p" + port, port, up)))
        .build();
  }

  private static OFMessage packetIn() {
    return F.buildPacketIn()
        .setXid(0)
        .setBufferId(OFBufferId.NO_BUFFER)
        .setTotalLen(1)
        .setReason(OFPacketInReason.NO_MATCH)
        .setTableId(TableId.of(0))
        .setCookie(U64.of(0))
        .setMatch(F.buildMatch().setExact(MatchField.IN_PORT, OFPort.of(3)).build())
        .setData(new byte[] {1})
        .build();
  }
}
