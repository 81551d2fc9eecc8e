package org.netpubsub.controller.southbound;

/**
 * A switch port as the switch describes it (ofp_port): number (reserved LOCAL included), name,
 * hardware address (48 bits), and whether it is up: administratively enabled and with a link.
 */
public record PortInfo(long number, String name, long hwAddr, boolean up) {
  public PortInfo {
    if (name == null) {
      throw new IllegalArgumentException("port name is required");
    }
    if (hwAddr < 0 || hwAddr > 0xffff_ffff_ffffL) {
      throw new IllegalArgumentException("hardware address is 48 bits: " + hwAddr);
    }
  }

  /** The hardware address as {@code 02:00:00:00:00:01}. */
  public String hwAddrString() {
    StringBuilder sb = new StringBuilder();
    for (int i = 5; i >= 0; i--) {
      sb.append(String.format("%02x", (hwAddr >>> (8 * i)) & 0xff));
      if (i > 0) {
        sb.append(':');
      }
    }
    return sb.toString();
  }

  public PortInfo withUp(boolean isUp) {
    return new PortInfo(number, name, hwAddr, isUp);
  }
}
