package org.netpubsub.network.nbi;

import java.io.ByteArrayOutputStream;
import org.netpubsub.content.address.Ipv6Address;

/**
 * Frames for tests, built byte by byte: Ethernet with optional 802.1Q tags, IPv4 or IPv6 (with
 * optional extension headers), TCP/UDP ports, ICMPv6. Checksums are left zero: the classifier does
 * not look at them.
 */
final class TestFrames {
  static final int TCP = 6;
  static final int UDP = 17;
  static final int ICMPV6 = 58;

  private TestFrames() {}

  /** Destination and source MAC, {@code vlanTags} 802.1Q tags, then the EtherType. */
  static byte[] ethernet(int ethType, int vlanTags, byte[] payload) {
    Bytes b = new Bytes();
    b.put(0x02_00_00_00_00_02L, 6).put(0x02_00_00_00_00_01L, 6);
    for (int i = 0; i < vlanTags; i++) {
      b.put(0x8100, 2).put(100 + i, 2);
    }
    return b.put(ethType, 2).put(payload).bytes();
  }

  /** A 20-byte IPv4 header (no options); {@code fragmentOffset} in 8-byte units. */
  static byte[] ipv4(long src, long dst, int proto, int fragmentOffset, byte[] payload) {
    return new Bytes()
        .put(0x45, 1)
        .put(0, 1)
        .put(20 + payload.length, 2)
        .put(0x1234, 2)
        .put(fragmentOffset & 0x1fff, 2)
        .put(64, 1)
        .put(proto, 1)
        .put(0, 2)
        .put(src, 4)
        .put(dst, 4)
        .put(payload)
        .bytes();
  }

  /** A 40-byte IPv6 header. */
  static byte[] ipv6(Ipv6Address src, Ipv6Address dst, int nextHeader, byte[] payload) {
    return new Bytes()
        .put(0x6000_0000L, 4)
        .put(payload.length, 2)
        .put(nextHeader, 1)
        .put(64, 1)
        .put(src.high(), 8)
        .put(src.low(), 8)
        .put(dst.high(), 8)
        .put(dst.low(), 8)
        .put(payload)
        .bytes();
  }

  /** An 8-byte hop-by-hop / routing / destination-options header (type 0, 43 or 60). */
  static byte[] optionsHeader(int nextHeader, byte[] payload) {
    return new Bytes().put(nextHeader, 1).put(0, 1).put(0, 6).put(payload).bytes();
  }

  /** An IPv6 fragment header; {@code offset} in 8-byte units. */
  static byte[] fragmentHeader(int nextHeader, int offset, byte[] payload) {
    return new Bytes()
        .put(nextHeader, 1)
        .put(0, 1)
        .put(offset << 3, 2)
        .put(0xabcd, 4)
        .put(payload)
        .bytes();
  }

  /** A UDP header and payload. */
  static byte[] udp(int src, int dst, byte[] payload) {
    return new Bytes()
        .put(src, 2)
        .put(dst, 2)
        .put(8 + payload.length, 2)
        .put(0, 2)
        .put(payload)
        .bytes();
  }

  /** A 20-byte TCP header. */
  static byte[] tcp(int src, int dst) {
    return new Bytes()
        .put(src, 2)
        .put(dst, 2)
        .put(1, 4)
        .put(0, 4)
        .put(0x5002, 2)
        .put(0xffff, 2)
        .put(0, 4)
        .bytes();
  }

  /** An ICMPv6 message of the type, with a 4-byte body. */
  static byte[] icmpv6(int type) {
    return new Bytes().put(type, 1).put(0, 1).put(0, 2).put(0, 4).bytes();
  }

  static byte[] truncate(byte[] b, int length) {
    return java.util.Arrays.copyOf(b, Math.min(b.length, length));
  }

  /** Big-endian byte writer. */
  static final class Bytes {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Bytes put(long v, int bytes) {
      for (int i = bytes - 1; i >= 0; i--) {
        out.write((int) (v >>> (8 * i)));
      }
      return this;
    }

    Bytes put(byte[] b) {
      out.writeBytes(b);
      return this;
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }
}
