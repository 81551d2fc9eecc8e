package org.netpubsub.compiler.telemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded telemetry report packets as a fabric of {@code switches} switches (node ids 1..N) sends
 * them: one to three reports per packet; hop latencies mostly short (exponential, mean 40) with a
 * congested tail (5 %, uniform in [100, 10 000]); queue occupancy growing with latency; some
 * reports also carry timestamps or tx utilization, some a truncated IPv4 packet, and some are
 * inner-only (RepType 0), so decoders skip what they do not read.
 */
public final class IntReportGenerator {
  /** A packet and what it says, for checking decoders and filters. */
  public record Packet(long nodeId, List<IntReport> reports, byte[] bytes) {
    public Packet {
      reports = List.copyOf(reports);
    }
  }

  private final SplittableRandom rng;
  private final int switches;
  private int sequence;

  public IntReportGenerator(long seed, int switches) {
    if (switches < 1) {
      throw new IllegalArgumentException("switches must be >= 1, got " + switches);
    }
    this.rng = new SplittableRandom(seed);
    this.switches = switches;
  }

  public Packet next() {
    long node = 1 + rng.nextInt(switches);
    int n = 1 + rng.nextInt(3);
    List<IntReport> reports = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      reports.add(report());
    }
    byte[] bytes = IntReportEncoder.encode(0, sequence, node, reports);
    sequence = (sequence + 1) & 0x3f_ffff;
    return new Packet(node, reports, bytes);
  }

  private IntReport report() {
    byte[] inner = new byte[rng.nextInt(4) == 0 ? 20 : 0];
    if (inner.length > 0) {
      inner[0] = 0x45; // an IPv4 header's version and IHL
    }
    if (rng.nextInt(20) == 0) {
      return new IntReport(0, 0, 0, 0, 0, 0, 0, 0, 0, new byte[20]);
    }
    long latency =
        rng.nextInt(20) == 0
            ? 100 + rng.nextInt(9_901)
            : Math.round(-StrictMath.log(1.0 - rng.nextDouble()) * 40);
    int bits = RepMdBits.PORTS | RepMdBits.HOP_LATENCY | RepMdBits.QUEUE;
    if (rng.nextBoolean()) {
      bits |= RepMdBits.INGRESS_TIMESTAMP | RepMdBits.EGRESS_TIMESTAMP;
    }
    if (rng.nextInt(8) == 0) {
      bits |= RepMdBits.TX_UTILIZATION;
    }
    long ingressTs = rng.nextLong() >>> 1;
    return new IntReport(
        IntReportPacket.REP_TYPE_INT,
        bits,
        1 + rng.nextInt(64),
        1 + rng.nextInt(64),
        latency,
        rng.nextInt(8),
        Math.min(0xff_ffff, latency * 10 + rng.nextInt(100)),
        ingressTs,
        ingressTs + latency,
        inner);
  }
}
