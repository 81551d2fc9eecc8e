package org.netpubsub.edge.dds;

import java.util.Arrays;

/**
 * A DDS sample's overlay payload carries its writer's source timestamp (docs/overlay-dds.md,
 * "Source timestamps"): {@code 0x01, i64 big-endian nanoseconds since the epoch, CDR bytes}.
 * Serialized CDR always starts with a 0x00 byte (the high byte of its encapsulation identifier,
 * 0x0000–0x000b), so a payload starting with 0x00 is bare CDR (an MQTT message of the opaque type,
 * an edge from before the stamp). The DDS child writes the stamp and writes samples with it; an
 * MQTT site's subscriber of a {@code dds/…} key and the opaque type's MQTT mapping get the bare
 * CDR. Pure.
 */
public final class DdsStamp {
  /** The first byte of a stamped payload. */
  public static final byte STAMPED = 1;

  private static final int HEADER = 9;

  private DdsStamp() {}

  /** The CDR bytes of a payload, stamped or bare. */
  public static byte[] cdr(byte[] payload) {
    return stamped(payload) ? Arrays.copyOfRange(payload, HEADER, payload.length) : payload;
  }

  /** A payload of CDR bytes stamped with a source timestamp. */
  public static byte[] stamp(long sourceTimestampNanos, byte[] cdr) {
    byte[] out = new byte[HEADER + cdr.length];
    out[0] = STAMPED;
    for (int i = 0; i < 8; i++) {
      out[1 + i] = (byte) (sourceTimestampNanos >>> (56 - 8 * i));
    }
    System.arraycopy(cdr, 0, out, HEADER, cdr.length);
    return out;
  }

  /** The source timestamp of a stamped payload, or null for bare CDR. */
  public static Long timestamp(byte[] payload) {
    if (!stamped(payload)) {
      return null;
    }
    long t = 0;
    for (int i = 1; i < HEADER; i++) {
      t = (t << 8) | (payload[i] & 0xFF);
    }
    return t;
  }

  private static boolean stamped(byte[] payload) {
    return payload.length >= HEADER && payload[0] == STAMPED;
  }
}
