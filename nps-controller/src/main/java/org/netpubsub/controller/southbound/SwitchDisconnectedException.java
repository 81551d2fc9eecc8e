package org.netpubsub.controller.southbound;

/** The connection to the switch ended before the request was answered (or was already closed). */
public final class SwitchDisconnectedException extends SouthboundException {
  private static final long serialVersionUID = 1L;

  private final DisconnectReason reason;

  public SwitchDisconnectedException(long dpid, DisconnectReason reason) {
    super(dpid, "switch " + dpidString(dpid) + " disconnected: " + reason);
    this.reason = reason;
  }

  public DisconnectReason reason() {
    return reason;
  }
}
