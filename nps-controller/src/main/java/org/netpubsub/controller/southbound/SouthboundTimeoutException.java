package org.netpubsub.controller.southbound;

import java.time.Duration;

/** A switch did not answer a request (a batch's barrier, a multipart request) in time. */
public final class SouthboundTimeoutException extends SouthboundException {
  private static final long serialVersionUID = 1L;

  public SouthboundTimeoutException(long dpid, String what, Duration timeout) {
    super(dpid, "switch " + dpidString(dpid) + ": no answer to " + what + " within " + timeout);
  }
}
