package org.netpubsub.network.openflow;

/**
 * OpenFlow 1.3 port numbers (uint32 held in a long): physical ports are 1..{@link #MAX}-1, the
 * reserved ports are the named constants. {@link #name} and {@link #parse} use ovs-ofctl's names.
 */
public final class OfPort {
  /** Physical ports are numbered below this (OFPP_MAX). */
  public static final long MAX = 0xffffff00L;

  public static final long IN_PORT = 0xfffffff8L;
  public static final long TABLE = 0xfffffff9L;
  public static final long NORMAL = 0xfffffffaL;
  public static final long FLOOD = 0xfffffffbL;
  public static final long ALL = 0xfffffffcL;
  public static final long CONTROLLER = 0xfffffffdL;
  public static final long LOCAL = 0xfffffffeL;
  public static final long ANY = 0xffffffffL;

  private static final String[] NAMES = {
    "IN_PORT", "TABLE", "NORMAL", "FLOOD", "ALL", "CONTROLLER", "LOCAL", "ANY"
  };

  private OfPort() {}

  /** A port a packet can physically enter by or leave by: 1..MAX-1, or LOCAL. */
  public static boolean isPhysicalOrLocal(long port) {
    return (port >= 1 && port < MAX) || port == LOCAL;
  }

  public static boolean isReserved(long port) {
    return port >= IN_PORT && port <= ANY;
  }

  /** The ovs-ofctl name of a reserved port ({@code IN_PORT}), else the decimal number. */
  public static String name(long port) {
    return isReserved(port) ? NAMES[(int) (port - IN_PORT)] : Long.toString(port);
  }

  /** Parses a number or a reserved port name (any case), as ovs-ofctl accepts them. */
  public static long parse(String text) {
    String t = text.trim();
    for (int i = 0; i < NAMES.length; i++) {
      if (NAMES[i].equalsIgnoreCase(t)) {
        return IN_PORT + i;
      }
    }
    try {
      long port = Long.decode(t);
      if (port < 0 || port > ANY) {
        throw new IllegalArgumentException("port out of range: " + text);
      }
      // 0xff00..0xffff are OpenFlow 1.0's reserved numbers (LOCAL is 65534 in `ovs-appctl
      // dpif/show`); ovs-ofctl translates them to OpenFlow 1.1+ numbers the same way.
      return port >= 0xff00 && port <= 0xffff ? MAX + (port - 0xff00) : port;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("not a port: '" + text + "'");
    }
  }
}
