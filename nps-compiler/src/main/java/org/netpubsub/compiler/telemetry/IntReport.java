package org.netpubsub.compiler.telemetry;

/**
 * One individual telemetry report as an encoder and a test see it: its RepType (1 = INT), the
 * baseline metadata RepMdBits announce, and {@code inner} bytes (a truncated packet, a multiple of
 * 4 bytes, sent as InType 4 when present). Metadata of other bits is sent as the all-ones
 * "unavailable" value.
 */
public record IntReport(
    int repType,
    int repMdBits,
    int ingressPort,
    int egressPort,
    long hopLatency,
    int queueId,
    long queueOccupancy,
    long ingressTimestamp,
    long egressTimestamp,
    byte[] inner) {
  public IntReport {
    if (repType < 0 || repType > 15) {
      throw new IllegalArgumentException("RepType is 4 bits, got " + repType);
    }
    if ((repMdBits & ~0xffff) != 0) {
      throw new IllegalArgumentException("RepMdBits are 16 bits, got " + repMdBits);
    }
    inner = inner.clone();
    if (inner.length % 4 != 0) {
      throw new IllegalArgumentException("inner contents are whole 4-byte words");
    }
    int words = words(repType, repMdBits, inner.length);
    if (words > 255) {
      throw new IllegalArgumentException("a report is at most 255 words after its header");
    }
  }

  /** An INT report with ports, hop latency and queue (RepMdBits 1, 2, 3) and nothing inner. */
  public static IntReport hop(
      int ingressPort, int egressPort, long hopLatency, int queueId, long queueOccupancy) {
    return new IntReport(
        IntReportPacket.REP_TYPE_INT,
        RepMdBits.PORTS | RepMdBits.HOP_LATENCY | RepMdBits.QUEUE,
        ingressPort,
        egressPort,
        hopLatency,
        queueId,
        queueOccupancy,
        0,
        0,
        new byte[0]);
  }

  @Override
  public byte[] inner() {
    return inner.clone();
  }

  /** Metadata words (MD Length). */
  int mdWords() {
    return repType == IntReportPacket.REP_TYPE_INT ? RepMdBits.baselineBytes(repMdBits) / 4 : 0;
  }

  /** Report Length: words after the 4-byte header. */
  int words() {
    return words(repType, repMdBits, inner.length);
  }

  private static int words(int repType, int bits, int innerBytes) {
    int fixed = repType == IntReportPacket.REP_TYPE_INT ? 2 + RepMdBits.baselineBytes(bits) / 4 : 0;
    return fixed + innerBytes / 4;
  }

  /**
   * The values the decoder gives for this report from node {@code nodeId}: what its bits carry, 0
   * for the rest ({@code BuiltinSpecs.intReports()} order).
   */
  public long[] values(long nodeId) {
    boolean queue = (repMdBits & RepMdBits.QUEUE) != 0;
    boolean drop = (repMdBits & RepMdBits.DROP_REASON) != 0;
    boolean ports = (repMdBits & RepMdBits.PORTS) != 0;
    return new long[] {
      nodeId,
      (repMdBits & RepMdBits.HOP_LATENCY) != 0 ? hopLatency : 0,
      queue ? queueOccupancy : 0,
      ports ? ingressPort : 0,
      ports ? egressPort : 0,
      queue || drop ? queueId : 0
    };
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IntReport r
        && repType == r.repType
        && repMdBits == r.repMdBits
        && ingressPort == r.ingressPort
        && egressPort == r.egressPort
        && hopLatency == r.hopLatency
        && queueId == r.queueId
        && queueOccupancy == r.queueOccupancy
        && ingressTimestamp == r.ingressTimestamp
        && egressTimestamp == r.egressTimestamp
        && java.util.Arrays.equals(inner, r.inner);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(repType, repMdBits, hopLatency, ingressPort, egressPort)
        + java.util.Arrays.hashCode(inner);
  }
}
