package org.netpubsub.controller.nbi;

import java.util.List;
import org.netpubsub.network.nbi.NbiTopic;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.topology.Topology;

/**
 * An in-process controller app on the northbound bus. Each app runs on its own thread and sees its
 * packet-ins one at a time, in the order the bus queued them, so an app needs no locking of its own
 * state.
 */
public interface ControllerApp {
  /** A unique, non-blank name: the app's identity on the bus and in the metrics. */
  String name();

  /** What the app wants to see; the broadcast baseline ignores this and sends it everything. */
  List<NbiTopic> topics();

  /** One packet-in; answers go through {@code bus}. */
  void onPacketIn(PacketInView packetIn, AppContext bus);

  /**
   * The topology the bus knows, re-announced after a packet-out met a dead port (Algorithm 2, line
   * 14). Default: ignored.
   */
  default void onTopology(Topology topology) {}
}
