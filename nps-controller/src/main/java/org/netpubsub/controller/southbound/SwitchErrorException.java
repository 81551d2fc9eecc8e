package org.netpubsub.controller.southbound;

/**
 * The switch answered OFPT_ERROR to a request that is not part of a batch (a multipart request).
 */
public final class SwitchErrorException extends SouthboundException {
  private static final long serialVersionUID = 1L;

  private final SwitchError error;

  public SwitchErrorException(long dpid, String request, SwitchError error) {
    super(dpid, "switch " + dpidString(dpid) + " refused " + request + ": " + error);
    this.error = error;
  }

  public SwitchError error() {
    return error;
  }
}
