package org.netpubsub.compiler.telemetry;

/**
 * The baseline metadata bits of an INT individual report (RepMdBits; bit 0 is the most significant
 * of 16). Each present bit adds 4 bytes of metadata, in bit order, except bits 4, 5 and 6, which
 * add 8.
 */
public final class RepMdBits {
  /** Bit 1: level 1 ingress interface id (16) + egress interface id (16). */
  public static final int PORTS = bit(1);

  /** Bit 2: hop latency (32). */
  public static final int HOP_LATENCY = bit(2);

  /** Bit 3: queue id (8) + queue occupancy (24). */
  public static final int QUEUE = bit(3);

  /** Bit 4: ingress timestamp (64). */
  public static final int INGRESS_TIMESTAMP = bit(4);

  /** Bit 5: egress timestamp (64). */
  public static final int EGRESS_TIMESTAMP = bit(5);

  /** Bit 6: level 2 ingress + egress interface ids (32 + 32). */
  public static final int L2_PORTS = bit(6);

  /** Bit 7: egress port tx utilization (32). */
  public static final int TX_UTILIZATION = bit(7);

  /** Bit 8: buffer id (8) + buffer occupancy (24). */
  public static final int BUFFER = bit(8);

  /** Bit 15: queue id (8) + drop reason (8) + padding (16). */
  public static final int DROP_REASON = bit(15);

  /** Bits 4–6, the 8-byte ones. */
  static final int WIDE = INGRESS_TIMESTAMP | EGRESS_TIMESTAMP | L2_PORTS;

  private RepMdBits() {}

  /** The mask of bit {@code n} (0 = most significant). */
  public static int bit(int n) {
    return 0x8000 >>> n;
  }

  /** Bytes of baseline metadata these bits announce. */
  public static int baselineBytes(int bits) {
    bits &= 0xffff;
    return 4 * Integer.bitCount(bits) + 4 * Integer.bitCount(bits & WIDE);
  }
}
