package org.netpubsub.controller.nbi;

import org.netpubsub.network.nbi.InvariantVerdict;
import org.netpubsub.network.nbi.PacketInView;
import org.netpubsub.network.nbi.PacketOutVerdict;
import org.netpubsub.network.openflow.FlowMod;

/** What an app may send to the switches; everything it sends passes the bus's checks first. */
public interface AppContext {
  /**
   * Sends {@code frame} out of {@code outPort} of switch {@code dpid} in answer to {@code cause}.
   * DROP_DUPLICATE when another app already answered the same packet-in on that switch or its
   * neighbour (Algorithm 2, lines 5–8); DEAD_PORT when the port leads nowhere.
   */
  PacketOutVerdict packetOut(PacketInView cause, long dpid, long outPort, byte[] frame);

  /**
   * Installs or removes a flow. A flow that forwards (or drops) one IPv6 destination is first
   * checked for loops and black holes (Algorithm 2, lines 18–27); a refused one never reaches the
   * switch and the verdict says why.
   */
  InvariantVerdict flowMod(long dpid, FlowMod mod);
}
