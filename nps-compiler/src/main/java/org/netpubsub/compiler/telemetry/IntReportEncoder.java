package org.netpubsub.compiler.telemetry;

import java.util.List;

/** Encodes telemetry report packets (v2.0), for generators and tests. */
public final class IntReportEncoder {
  /** The Tracked Flow (F) flag in a report header's fourth byte. */
  static final int FLAG_TRACKED_FLOW = 0x20;

  /** InType of a truncated IPv4 packet. */
  static final int IN_TYPE_IPV4 = 4;

  private IntReportEncoder() {}

  /** One packet from node {@code nodeId}. */
  public static byte[] encode(int hwId, int sequence, long nodeId, List<IntReport> reports) {
    if (hwId < 0 || hwId > 0x3f || sequence < 0 || sequence > 0x3f_ffff) {
      throw new IllegalArgumentException("hw_id is 6 bits and sequence 22 bits");
    }
    if (nodeId < 0 || nodeId > 0xffff_ffffL) {
      throw new IllegalArgumentException("a node id is 32 bits, got " + nodeId);
    }
    int size = IntReportPacket.GROUP_HEADER_LENGTH;
    for (IntReport r : reports) {
      size += IntReportPacket.REPORT_HEADER_LENGTH + 4 * r.words();
    }
    byte[] out = new byte[size];
    put32(out, 0, (long) IntReportPacket.VERSION << 28 | (long) hwId << 22 | sequence);
    put32(out, 4, nodeId);
    int pos = IntReportPacket.GROUP_HEADER_LENGTH;
    for (IntReport r : reports) {
      pos = report(out, pos, r);
    }
    return out;
  }

  private static int report(byte[] out, int pos, IntReport r) {
    byte[] inner = r.inner();
    out[pos] = (byte) (r.repType() << 4 | (inner.length > 0 ? IN_TYPE_IPV4 : 0));
    out[pos + 1] = (byte) r.words();
    out[pos + 2] = (byte) r.mdWords();
    out[pos + 3] = (byte) FLAG_TRACKED_FLOW;
    pos += IntReportPacket.REPORT_HEADER_LENGTH;
    if (r.repType() == IntReportPacket.REP_TYPE_INT) {
      int bits = r.repMdBits();
      put16(out, pos, bits);
      pos += 8; // domain-specific id, DSMdBits, DSMdStatus: 0
      for (int b = 0; b < 16; b++) {
        int mask = RepMdBits.bit(b);
        if ((bits & mask) == 0) {
          continue;
        }
        int width = (RepMdBits.WIDE & mask) != 0 ? 8 : 4;
        switch (b) {
          case 1 -> {
            put16(out, pos, r.ingressPort());
            put16(out, pos + 2, r.egressPort());
          }
          case 2 -> put32(out, pos, r.hopLatency());
          case 3 -> put32(out, pos, (long) r.queueId() << 24 | r.queueOccupancy());
          case 4 -> put64(out, pos, r.ingressTimestamp());
          case 5 -> put64(out, pos, r.egressTimestamp());
          case 15 -> out[pos] = (byte) r.queueId();
          default -> java.util.Arrays.fill(out, pos, pos + width, (byte) 0xff);
        }
        pos += width;
      }
    }
    System.arraycopy(inner, 0, out, pos, inner.length);
    return pos + inner.length;
  }

  private static void put16(byte[] b, int off, int v) {
    b[off] = (byte) (v >>> 8);
    b[off + 1] = (byte) v;
  }

  private static void put32(byte[] b, int off, long v) {
    put16(b, off, (int) (v >>> 16));
    put16(b, off + 2, (int) v);
  }

  private static void put64(byte[] b, int off, long v) {
    put32(b, off, v >>> 32);
    put32(b, off + 4, v);
  }
}
