package org.netpubsub.network.sim;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * The bytes of a frame riding along with its {@link org.netpubsub.network.openflow.PacketHeaders}
 * through the simulated network (an LLDP or ND frame the controller decodes at the packet-in).
 * Switches never look at or change them. Immutable; equal when the bytes are.
 */
public record Payload(byte[] bytes) {
  public static final Payload EMPTY = new Payload(new byte[0]);

  public Payload {
    bytes = bytes == null ? new byte[0] : bytes.clone();
  }

  /** A copy of the bytes. */
  @Override
  public byte[] bytes() {
    return bytes.clone();
  }

  public int length() {
    return bytes.length;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Payload p && Arrays.equals(bytes, p.bytes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return bytes.length <= 16
        ? HexFormat.of().formatHex(bytes)
        : HexFormat.of().formatHex(bytes, 0, 16) + "...(" + bytes.length + " bytes)";
  }
}
