package org.netpubsub.network.openflow;

/** A 64-bit value with a bit mask (the OpenFlow metadata field); the value is kept ANDed. */
public record MaskedLong(long value, long mask) {
  public MaskedLong {
    value &= mask;
  }

  public static MaskedLong exact(long value) {
    return new MaskedLong(value, -1L);
  }

  public boolean matches(long v) {
    return (v & mask) == value;
  }

  public boolean covers(MaskedLong other) {
    return (other.mask & mask) == mask && (other.value & mask) == value;
  }

  public boolean overlaps(MaskedLong other) {
    return ((value ^ other.value) & mask & other.mask) == 0;
  }

  /** {@code 0xV} when exact, else {@code 0xV/0xM} — as ovs-ofctl. */
  @Override
  public String toString() {
    String v = "0x" + Long.toHexString(value);
    return mask == -1L ? v : v + "/0x" + Long.toHexString(mask);
  }
}
