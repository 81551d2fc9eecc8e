package org.netpubsub.controller.sim;

import java.util.List;
import org.netpubsub.network.openflow.Action;

/** A packet-out a simulated switch received: the in_port, the actions, and the frame. */
public record PacketOutRecord(long inPort, List<Action> actions, byte[] frame) {
  public PacketOutRecord {
    actions = List.copyOf(actions);
    frame = frame.clone();
  }

  @Override
  public byte[] frame() {
    return frame.clone();
  }
}
