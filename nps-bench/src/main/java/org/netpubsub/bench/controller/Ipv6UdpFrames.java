package org.netpubsub.bench.controller;

/**
 * The default {@link FrameSource}: a 70-byte Ethernet/IPv6/UDP frame from host {@code n mod hosts}
 * to host {@code (n + 1) mod hosts} of the sending switch. Host {@code h} behind switch index
 * {@code s} has the locally administered MAC {@code 02:SS:SS:HH:HH:HH} and the address {@code
 * 2001:db8:0:S::H} (the documentation prefix); UDP from port 49152 to port 9 (discard) with the
 * sequence number as 8-byte payload, checksum computed (mandatory over IPv6).
 */
final class Ipv6UdpFrames implements FrameSource {
  static final int LENGTH = 14 + 40 + 8 + 8;
  static final int SOURCE_PORT = 49152;
  static final int DESTINATION_PORT = 9;

  private static final int IP = 14;
  private static final int UDP = IP + 40;

  private final int hosts;

  Ipv6UdpFrames(int hosts) {
    if (hosts < 1 || hosts > MAX_HOSTS) {
      throw new IllegalArgumentException("hosts per switch must be in 1.." + MAX_HOSTS);
    }
    this.hosts = hosts;
  }

  /** The MAC of host {@code host} behind switch index {@code switchIndex}. */
  static long mac(int switchIndex, int host) {
    return 0x02L << 40 | (switchIndex & 0xffffL) << 24 | host & 0xffffffL;
  }

  @Override
  public byte[] frame(int switchIndex, long sequence) {
    if (switchIndex < 0 || switchIndex >= MAX_SWITCHES) {
      throw new IllegalArgumentException("switch index must be in 0.." + (MAX_SWITCHES - 1));
    }
    int src = (int) Long.remainderUnsigned(sequence, hosts);
    int dst = src + 1 == hosts ? 0 : src + 1;
    byte[] b = new byte[LENGTH];
    put(b, 0, mac(switchIndex, dst), 6);
    put(b, 6, mac(switchIndex, src), 6);
    put(b, 12, 0x86dd, 2);
    put(b, IP, 0x6000_0000L, 4); // version 6, no traffic class, no flow label
    put(b, IP + 4, 16, 2); // payload length: UDP header + 8 bytes
    b[IP + 6] = 17; // next header: UDP
    b[IP + 7] = 64; // hop limit
    address(b, IP + 8, switchIndex, src);
    address(b, IP + 24, switchIndex, dst);
    put(b, UDP, SOURCE_PORT, 2);
    put(b, UDP + 2, DESTINATION_PORT, 2);
    put(b, UDP + 4, 16, 2);
    put(b, UDP + 8, sequence, 8);
    put(b, UDP + 6, udpChecksum(b), 2);
    return b;
  }

  /** 2001:db8:0:S::H. */
  private static void address(byte[] b, int at, int switchIndex, int host) {
    put(b, at, 0x2001_0db8_0000_0000L | switchIndex & 0xffffL, 8);
    put(b, at + 8, host & 0xffffffffL, 8);
  }

  /** RFC 8200 §8.1: over the pseudo-header (addresses, length, next header) and the datagram. */
  static int udpChecksum(byte[] b) {
    long sum = 0;
    for (int i = IP + 8; i < IP + 40; i += 2) {
      sum += u16(b, i);
    }
    sum += LENGTH - UDP; // upper-layer packet length
    sum += 17;
    for (int i = UDP; i < LENGTH; i += 2) {
      sum += i == UDP + 6 ? 0 : u16(b, i);
    }
    while (sum >> 16 != 0) {
      sum = (sum & 0xffff) + (sum >> 16);
    }
    int c = (int) ~sum & 0xffff;
    return c == 0 ? 0xffff : c; // zero means "no checksum", forbidden over IPv6
  }

  private static int u16(byte[] b, int at) {
    return (b[at] & 0xff) << 8 | b[at + 1] & 0xff;
  }

  private static void put(byte[] b, int at, long value, int bytes) {
    for (int i = bytes - 1; i >= 0; i--) {
      b[at + i] = (byte) value;
      value >>>= 8;
    }
  }
}
