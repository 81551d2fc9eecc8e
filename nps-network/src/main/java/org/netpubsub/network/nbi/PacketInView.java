package org.netpubsub.network.nbi;

import java.util.Arrays;
import org.netpubsub.network.openflow.OfPort;

/**
 * What the northbound classifier sees of one OpenFlow packet-in: the switch, the port the packet
 * entered by, the message's xid, and the packet's bytes. Header fields are parsed on first use
 * only, so topics that look at raw bytes (EMD §4.2, protocol-independent mode) never pay for
 * parsing.
 */
public final class PacketInView {
  private final long dpid;
  private final long inPort;
  private final long xid;
  private final byte[] data;

  /** Parsed on first use; volatile so a view handed between threads is parsed safely. */
  private volatile FrameHeaders headers;

  /**
   * @param inPort the OpenFlow in_port (uint32)
   * @param xid the packet-in's transaction id (uint32)
   * @param data the packet as the switch sent it, possibly truncated; copied
   */
  public PacketInView(long dpid, long inPort, long xid, byte[] data) {
    if (inPort < 0 || inPort > OfPort.ANY) {
      throw new IllegalArgumentException("in_port out of range: " + inPort);
    }
    if (xid < 0 || xid > 0xffffffffL) {
      throw new IllegalArgumentException("xid out of range: " + xid);
    }
    this.dpid = dpid;
    this.inPort = inPort;
    this.xid = xid;
    this.data = data == null ? new byte[0] : data.clone();
  }

  public long dpid() {
    return dpid;
  }

  public long inPort() {
    return inPort;
  }

  public long xid() {
    return xid;
  }

  /** A copy of the packet's bytes. */
  public byte[] data() {
    return data.clone();
  }

  public int length() {
    return data.length;
  }

  /**
   * The {@code length} bytes (1..16) at {@code offset} as a value, or null if the packet ends
   * before them.
   */
  FieldValue bytes(int offset, int length) {
    return offset + length > data.length ? null : FieldValue.ofBytes(data, offset, length);
  }

  /** The header fields, parsed now if this is the first call. */
  public FrameHeaders headers() {
    FrameHeaders h = headers;
    if (h == null) {
      h = FrameHeaders.parse(data);
      headers = h;
    }
    return h;
  }

  /** True once {@link #headers} has parsed the bytes (tests check the laziness). */
  boolean isParsed() {
    return headers != null;
  }

  @Override
  public String toString() {
    return "PacketIn{dpid="
        + Long.toHexString(dpid)
        + ", inPort="
        + OfPort.name(inPort)
        + ", xid="
        + xid
        + ", bytes="
        + data.length
        + "}";
  }

  /** Views are equal when every field and byte is. */
  @Override
  public boolean equals(Object o) {
    return o instanceof PacketInView p
        && dpid == p.dpid
        && inPort == p.inPort
        && xid == p.xid
        && Arrays.equals(data, p.data);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(dpid) * 31 * 31 * 31
        + Long.hashCode(inPort) * 31 * 31
        + Long.hashCode(xid) * 31
        + Arrays.hashCode(data);
  }
}
