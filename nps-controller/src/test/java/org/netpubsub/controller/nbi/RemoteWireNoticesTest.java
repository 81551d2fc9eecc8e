package org.netpubsub.controller.nbi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.netpubsub.controller.nbi.NorthboundBusTest.H2;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.netpubsub.content.address.Ipv6Address;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.topology.Host;
import org.netpubsub.network.topology.Link;
import org.netpubsub.network.topology.MacAddress;
import org.netpubsub.network.topology.SwitchPort;
import org.netpubsub.network.topology.Topology;

/** The bus's notices to remote apps on the wire: refusals and topologies, and broken bytes. */
class RemoteWireNoticesTest {
  static final Topology T =
      Topology.EMPTY
          .addSwitch(1, 1, 2, 9)
          .addSwitch(-2L, 1, 3)
          .addLink(Link.of(1, 2, -2L, 1))
          .addHost(new Host(H2, new MacAddress(0xfeed_0000_0002L), new SwitchPort(-2L, 3)))
          .addHost(new Host(Ipv6Address.parse("fd00::9"), new MacAddress(9), new SwitchPort(1, 9)));

  @Test
  void noticesComeBackAsTheyWereSent() {
    assertThat(RemoteWire.decodeData(RemoteWire.topology(T)))
        .isEqualTo(new RemoteWire.TopologyData(T));
    assertThat(RemoteWire.decodeData(RemoteWire.topology(Topology.EMPTY)))
        .isEqualTo(new RemoteWire.TopologyData(Topology.EMPTY));
    var flow = NorthboundBusTest.toH2(3);
    assertThat(RemoteWire.decodeData(RemoteWire.refusedFlowMod(7, flow, "loop: back to 7")))
        .isEqualTo(new RemoteWire.Refused(7, "loop: back to 7", flow, 0, 0));
    PacketInView cause = new PacketInView(1, 4, 0xffff_fff0L, new byte[0]);
    assertThat(RemoteWire.decodeData(RemoteWire.refusedPacketOut(cause, 1, 0xffff_fff1L, "dead")))
        .isEqualTo(new RemoteWire.Refused(1, "dead", null, 0xffff_fff0L, 0xffff_fff1L));
  }

  @Test
  void brokenNoticesAreRefusedWithAReasonNeverAnotherException() {
    byte[][] good = {
      RemoteWire.topology(T),
      RemoteWire.refusedFlowMod(7, NorthboundBusTest.toH2(3), "loop"),
      RemoteWire.refusedPacketOut(new PacketInView(1, 4, 5, new byte[0]), 1, 2, "dead")
    };
    Random r = new Random(3);
    for (byte[] body : good) {
      for (int cut = 1; cut < body.length; cut++) {
        byte[] shorter = Arrays.copyOf(body, cut);
        assertThatThrownBy(() -> RemoteWire.decodeData(shorter))
            .isInstanceOf(IllegalArgumentException.class);
      }
      for (int i = 0; i < 500; i++) {
        byte[] flipped = body.clone();
        flipped[1 + r.nextInt(flipped.length - 1)] ^= (byte) (1 << r.nextInt(8));
        try {
          RemoteWire.decodeData(flipped); // may still decode: a flipped port number is a port
        } catch (IllegalArgumentException expected) {
          assertThat(expected.getMessage()).isNotBlank();
        }
      }
    }
  }
}
