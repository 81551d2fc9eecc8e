package org.netpubsub.network.nbi;

import org.netpubsub.network.openflow.OfPort;

/**
 * An app's packet-out in answer to a packet-in: the packet-in it answers (switch and xid, which the
 * app echoes, as EMD's apps do) and where the packet is to leave: switch {@code dpid}, port {@code
 * outPort} (a physical port or a reserved one such as FLOOD).
 */
public record PacketOutRequest(long packetInDpid, long packetInXid, long dpid, long outPort) {
  public PacketOutRequest {
    if (packetInXid < 0 || packetInXid > 0xffffffffL) {
      throw new IllegalArgumentException("xid out of range: " + packetInXid);
    }
    if (outPort < 0 || outPort > OfPort.ANY) {
      throw new IllegalArgumentException("port out of range: " + outPort);
    }
  }
}
