package org.netpubsub.bench.controller;

/**
 * The Ethernet frames a {@link Cbench} run sends in its packet-ins: the frame of one emulated
 * switch's packet-in, by the switch's index (0-based; its datapath id is index + 1) and the
 * packet-in's sequence number on that switch (from 0). Called on the switch's event loop: it must
 * be quick, and may be called concurrently for different switches.
 */
@FunctionalInterface
public interface FrameSource {
  /** Switch indexes the default frames can tell apart (two bytes of each MAC). */
  int MAX_SWITCHES = 1 << 16;

  /** Hosts per switch the default frames can tell apart (three bytes of each MAC). */
  int MAX_HOSTS = 1 << 24;

  byte[] frame(int switchIndex, long sequence);

  /**
   * IPv6/UDP frames between the {@code hosts} hosts behind each switch, as cbench's {@code
   * --mac-addresses}: packet-in {@code n} goes from host {@code n mod hosts} to host {@code (n + 1)
   * mod hosts}, so every packet has a different source MAC than the one before, and a learning
   * switch has seen each destination as a source after the first {@code hosts} packets. See {@link
   * Ipv6UdpFrames} for the addresses.
   */
  static FrameSource ipv6Udp(int hosts) {
    return new Ipv6UdpFrames(hosts);
  }
}
