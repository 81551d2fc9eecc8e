package org.netpubsub.controller.nbi;

import java.nio.ByteBuffer;
import org.netpubsub.content.address.Ipv6Address;

/** Minimal frames for bus tests (checksums zero: nothing here verifies them). */
final class Frames {
  private Frames() {}

  static byte[] udp6(Ipv6Address src, Ipv6Address dst, int udpDst) {
    ByteBuffer b = ByteBuffer.allocate(14 + 40 + 8);
    b.putShort((short) 0x0200).putInt(2); // destination MAC
    b.putShort((short) 0x0200).putInt(1); // source MAC
    b.putShort((short) 0x86dd);
    b.putInt(0x6000_0000).putShort((short) 8).put((byte) 17).put((byte) 64);
    b.putLong(src.high()).putLong(src.low()).putLong(dst.high()).putLong(dst.low());
    b.putShort((short) 40000).putShort((short) udpDst).putShort((short) 8).putShort((short) 0);
    return b.array();
  }

  static byte[] lldp() {
    ByteBuffer b = ByteBuffer.allocate(14 + 4);
    b.putShort((short) 0x0180).putInt(0xc200000e);
    b.putShort((short) 0x0200).putInt(1);
    b.putShort((short) 0x88cc);
    b.putInt(0);
    return b.array();
  }
}
