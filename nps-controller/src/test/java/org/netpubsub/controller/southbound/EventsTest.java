package org.netpubsub.controller.southbound;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.controller.sim.SimulatedOpenFlowSwitch;
import org.netpubsub.network.openflow.FlowEntry;
import org.netpubsub.network.openflow.FlowFlag;
import org.netpubsub.network.openflow.FlowMod;
import org.netpubsub.network.openflow.FlowRemoved;
import org.netpubsub.network.openflow.OpenFlowError;

/** Asynchronous switch messages reach the listener, in order, off the event loop. */
class EventsTest {
  private static final Duration WAIT = Fixture.WAIT;

  @Test
  void portStatusPacketInFlowRemovedAndUnsolicitedErrors() throws Exception {
    try (Fixture f = new Fixture()) {
      SimulatedOpenFlowSwitch sim = f.connect(SimulatedOpenFlowSwitch.builder().dpid(9));
      SwitchHandle sw = f.awaitHandle(9);

      sim.setPortUp(2, false);
      Poll.until("port-status", WAIT, () -> f.events.portStatus.size() == 1);
      assertThat(f.events.portStatus.get(0).number()).isEqualTo(2);
      assertThat(f.events.portStatus.get(0).up()).isFalse();
      assertThat(sw.ports().get(1).up()).as("ports() follows port-status").isFalse();

      sim.sendPacketIn(3, 1, 0xc0ffee, new byte[] {9, 8, 7});
      Poll.until("packet-in", WAIT, () -> f.events.packetIns.size() == 1);
      assertThat(f.events.packetIns.get(0)).containsExactly(9, 8, 7);
      assertThat(f.events.log).contains("packet-in 9 in_port=3 ACTION table=1 cookie=12648430");

      FlowEntry e =
          AcknowledgedUpdatesTest.flow(1, 1).toBuilder().flag(FlowFlag.SEND_FLOW_REM).build();
      Poll.get(sw.applyFlows(List.of(FlowMod.add(e), FlowMod.deleteStrict(e))), WAIT);
      Poll.until("flow-removed", WAIT, () -> f.events.flowRemoved.size() == 1);
      FlowRemoved removed = f.events.flowRemoved.get(0);
      assertThat(removed.reason()).isEqualTo(FlowRemoved.Reason.DELETE);
      assertThat(removed.entry().match()).isEqualTo(e.match());
      assertThat(removed.entry().priority()).isEqualTo(e.priority());

      sim.sendRaw(
          bytes(OpenFlowTranslator.toOpenFlow(OpenFlowError.OFPBRC_EPERM, 0x7777, new byte[0])));
      Poll.until("unsolicited error", WAIT, () -> f.events.errors.size() == 1);
      assertThat(f.events.errors.get(0).known()).contains(OpenFlowError.OFPBRC_EPERM);
      assertThat(f.server.metrics().unsolicitedErrors()).isEqualTo(1);

      assertThat(f.events.log)
          .containsSubsequence(
              "connected 9",
              "port 9 2 MODIFY down",
              "packet-in 9 in_port=3 ACTION table=1 cookie=12648430",
              "flow-removed 9 DELETE",
              "error 9 " + f.events.errors.get(0));
      assertThat(f.events.threads).noneMatch(t -> t.startsWith("nps-of"));
    }
  }

  @Test
  void aFailingListenerIsCountedAndLaterEventsStillArrive() throws Exception {
    RecordingListener record = new RecordingListener();
    SouthboundListener throwing =
        new SouthboundListener() {
          @Override
          public void switchConnected(SwitchHandle sw) {
            throw new IllegalStateException("listener bug");
          }

          @Override
          public void packetIn(
              long dpid,
              long inPort,
              PacketInReason reason,
              int tableId,
              long cookie,
              byte[] frame) {
            record.packetIn(dpid, inPort, reason, tableId, cookie, frame);
          }
        };
    try (OpenFlowServer server =
            OpenFlowServer.builder()
                .bindAddress("127.0.0.1")
                .port(0)
                .listener(throwing)
                .build()
                .start();
        SimulatedOpenFlowSwitch sim = SimulatedOpenFlowSwitch.builder().dpid(10).build()) {
      Poll.get(sim.connect(server.localAddress()), WAIT);
      Poll.until("listener failure", WAIT, () -> server.metrics().listenerFailures() == 1);
      sim.sendPacketIn(1, 0, 0, new byte[] {1});
      Poll.until("packet-in after the failure", WAIT, () -> record.packetIns.size() == 1);
    }
  }

  private static byte[] bytes(org.projectfloodlight.openflow.protocol.OFMessage m) {
    ByteBuf buf = Unpooled.buffer();
    m.writeTo(buf);
    byte[] out = new byte[buf.readableBytes()];
    buf.readBytes(out);
    buf.release();
    return out;
  }
}
