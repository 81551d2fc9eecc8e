package org.netpubsub.compiler.telemetry;

import java.util.Arrays;

/**
 * A reusable view of one telemetry report packet (Telemetry Report Format v2.0, UDP payload): the
 * group header — version (4 bits, 2), hw_id (6), sequence (22), node id (32) — then individual
 * reports, each a 4-byte header — RepType (4), InType (4), Report Length (8, words after this
 * header), MD Length (8, words of metadata), flags D Q F I (4), reserved (4) — and its contents.
 * For RepType 1 (INT) the contents are RepMdBits, domain-specific id, DSMdBits and DSMdStatus (16
 * bits each), then the baseline metadata in RepMdBits order, then domain-specific metadata, then
 * the inner contents (a truncated packet, TLVs, …).
 *
 * <p>{@link #parse} checks the framing; {@link #decode} reads one INT report into the values of
 * {@code BuiltinSpecs.intReports()}: int.switch_id (the node id), int.hop_latency,
 * int.queue_occupancy, int.ingress_port, int.egress_port, int.queue_id. Metadata a report does not
 * carry reads as 0. Nothing is thrown or allocated per report. Not thread-safe.
 */
public final class IntReportPacket {
  /** The group header's length. */
  public static final int GROUP_HEADER_LENGTH = 8;

  /** An individual report's fixed header length. */
  public static final int REPORT_HEADER_LENGTH = 4;

  /** RepType of a report with INT metadata. */
  public static final int REP_TYPE_INT = 1;

  /** The version this decoder reads. */
  public static final int VERSION = 2;

  /** Positions in the value array: the field order of {@code BuiltinSpecs.intReports()}. */
  public static final int SWITCH_ID = 0;

  public static final int HOP_LATENCY = 1;
  public static final int QUEUE_OCCUPANCY = 2;
  public static final int INGRESS_PORT = 3;
  public static final int EGRESS_PORT = 4;
  public static final int QUEUE_ID = 5;

  /** Values per report. */
  public static final int FIELDS = 6;

  private byte[] buf = new byte[0];
  private int hwId;
  private int sequence;
  private long nodeId;
  private int reports;
  private IntMalformation malformation;

  /** starts[i]: offset of report i's header; starts[reports]: the end of the last. */
  private int[] starts = new int[16];

  /** Reads the packet in {@code buf[off, off + len)}; false when its framing is malformed. */
  public boolean parse(byte[] buf, int off, int len) {
    this.buf = buf;
    this.reports = 0;
    this.malformation = null;
    if (len < GROUP_HEADER_LENGTH) {
      return fail(IntMalformation.TRUNCATED_GROUP_HEADER);
    }
    int word = (int) u32(buf, off);
    if (word >>> 28 != VERSION) {
      return fail(IntMalformation.BAD_VERSION);
    }
    hwId = (word >>> 22) & 0x3f;
    sequence = word & 0x3f_ffff;
    nodeId = u32(buf, off + 4);
    int pos = off + GROUP_HEADER_LENGTH;
    int limit = off + len;
    int n = 0;
    int[] s = starts;
    while (pos < limit) {
      if (limit - pos < REPORT_HEADER_LENGTH) {
        return fail(IntMalformation.TRUNCATED_REPORT_HEADER);
      }
      int length = REPORT_HEADER_LENGTH + 4 * (buf[pos + 1] & 0xff);
      if (length > limit - pos) {
        return fail(IntMalformation.REPORT_BEYOND_PACKET);
      }
      if (n + 1 >= s.length) {
        s = starts = Arrays.copyOf(s, s.length * 2);
      }
      s[n++] = pos;
      pos += length;
    }
    s[n] = pos;
    reports = n;
    return true;
  }

  private boolean fail(IntMalformation m) {
    malformation = m;
    reports = 0;
    return false;
  }

  /** Why the last {@link #parse} failed; null after a success. */
  public IntMalformation malformation() {
    return malformation;
  }

  public int hwId() {
    return hwId;
  }

  /** The group header's sequence number (22 bits). */
  public int sequence() {
    return sequence;
  }

  /** The reporting node: the switch id of every report in the packet. */
  public long nodeId() {
    return nodeId;
  }

  /** Individual reports framed (0 after a malformed packet). */
  public int reports() {
    return reports;
  }

  /** The RepType of report {@code i} (1 = INT; others carry no INT metadata and are skipped). */
  public int reportType(int i) {
    return (buf[starts[i]] & 0xff) >>> 4;
  }

  /** The InType of report {@code i} (what its inner contents are). */
  public int innerType(int i) {
    return buf[starts[i]] & 0x0f;
  }

  /** The D, Q, F, I flags of report {@code i}, as the high nibble of its fourth byte. */
  public int flags(int i) {
    return (buf[starts[i] + 3] & 0xff) >>> 4;
  }

  /** Where report {@code i} starts (its header) and, for {@code i = reports()}, the end. */
  public int reportOffset(int i) {
    return starts[i];
  }

  /**
   * Reads INT report {@code i} (RepType 1) into {@code out[0..5]}; null, or why it is malformed
   * (then {@code out} is unspecified).
   */
  public IntMalformation decode(int i, long[] out) {
    int start = starts[i];
    int words = buf[start + 1] & 0xff;
    int mdWords = buf[start + 2] & 0xff;
    if (words < 2) {
      return IntMalformation.SHORT_INT_REPORT;
    }
    if (2 + mdWords > words) {
      return IntMalformation.MD_BEYOND_REPORT;
    }
    int bits = u16(buf, start + 4);
    if (RepMdBits.baselineBytes(bits) > 4 * mdWords) {
      return IntMalformation.BASELINE_BEYOND_MD;
    }
    long hop = 0;
    long occupancy = 0;
    long ingress = 0;
    long egress = 0;
    long queue = 0;
    boolean queueSeen = false;
    int pos = start + REPORT_HEADER_LENGTH + 8;
    for (int b = 0; b < 16; b++) {
      if ((bits & (0x8000 >>> b)) == 0) {
        continue;
      }
      switch (b) {
        case 1 -> {
          ingress = u16(buf, pos);
          egress = u16(buf, pos + 2);
        }
        case 2 -> hop = u32(buf, pos);
        case 3 -> {
          queue = buf[pos] & 0xff;
          occupancy = u32(buf, pos) & 0xff_ffff;
          queueSeen = true;
        }
        case 15 -> {
          if (!queueSeen) {
            queue = buf[pos] & 0xff;
          }
        }
        default -> {}
      }
      pos += (RepMdBits.WIDE & (0x8000 >>> b)) != 0 ? 8 : 4;
    }
    out[SWITCH_ID] = nodeId;
    out[HOP_LATENCY] = hop;
    out[QUEUE_OCCUPANCY] = occupancy;
    out[INGRESS_PORT] = ingress;
    out[EGRESS_PORT] = egress;
    out[QUEUE_ID] = queue;
    return null;
  }

  static int u16(byte[] b, int off) {
    return (b[off] & 0xff) << 8 | (b[off + 1] & 0xff);
  }

  static long u32(byte[] b, int off) {
    return (long) u16(b, off) << 16 | u16(b, off + 2);
  }
}
