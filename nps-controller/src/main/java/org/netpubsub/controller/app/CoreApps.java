package org.netpubsub.controller.app;

import java.util.List;
import java.util.function.Consumer;
import org.netpubsub.controller.nbi.AppContext;
import org.netpubsub.controller.nbi.ControllerApp;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.nbi.PacketInView;

/**
 * The controller's own packet-in consumers as apps on the northbound bus: topology discovery sees
 * LLDP, host tracking sees neighbour solicitations and advertisements, and nothing else reaches
 * them. Each hands its packet-in to the controller loop, which owns the discovery state and the
 * topology.
 */
final class CoreApps {
  static final NbiTopic LLDP = NbiTopic.parse("eth_type=0x88cc");
  static final NbiTopic SOLICITATIONS =
      NbiTopic.parse("eth_type=0x86dd,ip_proto=58,icmpv6_type=135");
  static final NbiTopic ADVERTISEMENTS =
      NbiTopic.parse("eth_type=0x86dd,ip_proto=58,icmpv6_type=136");

  private CoreApps() {}

  static ControllerApp topologyDiscovery(Consumer<PacketInView> onLoop) {
    return new LoopApp("topology-discovery", List.of(LLDP), onLoop);
  }

  static ControllerApp hostTracking(Consumer<PacketInView> onLoop) {
    return new LoopApp("host-tracking", List.of(SOLICITATIONS, ADVERTISEMENTS), onLoop);
  }

  /** An app whose work happens on the controller loop. */
  private record LoopApp(String name, List<NbiTopic> topics, Consumer<PacketInView> onLoop)
      implements ControllerApp {
    @Override
    public void onPacketIn(PacketInView packetIn, AppContext bus) {
      onLoop.accept(packetIn);
    }
  }
}
