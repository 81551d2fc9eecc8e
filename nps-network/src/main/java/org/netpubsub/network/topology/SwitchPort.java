package org.netpubsub.network.topology;

import java.util.Comparator;

/** A port of a switch: datapath id (unsigned 64-bit) and OpenFlow port number. */
public record SwitchPort(long dpid, long port) implements Comparable<SwitchPort> {
  /** Datapath ids compare unsigned, as OpenFlow defines them. */
  public static final Comparator<Long> DPID_ORDER = Long::compareUnsigned;

  private static final Comparator<SwitchPort> ORDER =
      Comparator.comparing(SwitchPort::dpid, DPID_ORDER).thenComparingLong(SwitchPort::port);

  public SwitchPort {
    if (!isPhysical(port)) {
      throw new IllegalArgumentException("not a physical port number: " + port);
    }
  }

  /** True for physical port numbers, 1..0xffffff00 (not LOCAL, CONTROLLER, ...). */
  public static boolean isPhysical(long port) {
    return port >= 1 && port <= 0xffffff00L;
  }

  public static SwitchPort of(long dpid, long port) {
    return new SwitchPort(dpid, port);
  }

  @Override
  public int compareTo(SwitchPort o) {
    return ORDER.compare(this, o);
  }

  /** {@code 1f:3}: the dpid in hex, the port in decimal. */
  @Override
  public String toString() {
    return Long.toHexString(dpid) + ":" + port;
  }
}
