package org.netpubsub.controller.southbound;

/**
 * A request to a switch that did not succeed: the base of the exceptions southbound futures fail
 * with. {@code dpid} names the switch (0 before the handshake told it).
 */
public class SouthboundException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final long dpid;

  public SouthboundException(long dpid, String message) {
    super(message);
    this.dpid = dpid;
  }

  public long dpid() {
    return dpid;
  }

  /** {@code 00:00:00:00:00:00:00:2a}, the form ovs-ofctl and ONOS print. */
  public static String dpidString(long dpid) {
    StringBuilder sb = new StringBuilder(23);
    for (int i = 7; i >= 0; i--) {
      sb.append(String.format("%02x", (dpid >>> (8 * i)) & 0xff));
      if (i > 0) {
        sb.append(':');
      }
    }
    return sb.toString();
  }
}
