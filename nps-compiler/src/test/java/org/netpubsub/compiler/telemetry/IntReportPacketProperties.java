package org.netpubsub.compiler.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

class IntReportPacketProperties {
  @Property(tries = 500)
  void encodedReportsDecodeToTheirValues(@ForAll("packets") IntReportGenerator.Packet packet) {
    byte[] b = packet.bytes();
    IntReportPacket p = new IntReportPacket();
    assertThat(p.parse(b, 0, b.length)).isTrue();
    assertThat(p.nodeId()).isEqualTo(packet.nodeId());
    assertThat(p.reports()).isEqualTo(packet.reports().size());
    assertThat(p.reportOffset(p.reports())).isEqualTo(b.length);
    long[] v = new long[IntReportPacket.FIELDS];
    for (int i = 0; i < p.reports(); i++) {
      IntReport r = packet.reports().get(i);
      assertThat(p.reportType(i)).isEqualTo(r.repType());
      assertThat(p.innerType(i)).isEqualTo(r.inner().length > 0 ? 4 : 0);
      if (r.repType() == IntReportPacket.REP_TYPE_INT) {
        assertThat(p.decode(i, v)).isNull();
        assertThat(v).containsExactly(r.values(packet.nodeId()));
      }
    }
  }

  @Property(tries = 300)
  void everyBaselineBitIsSkippedByItsWidth(
      @ForAll("bits") int bits, @ForAll("latencies") long latency) {
    IntReport r = new IntReport(1, bits, 7, 9, latency, 3, 0x12345, 11, 12, new byte[8]);
    byte[] b = IntReportEncoder.encode(5, 77, 42, List.of(r, IntReport.hop(1, 2, 3, 4, 5)));
    IntReportPacket p = new IntReportPacket();
    assertThat(p.parse(b, 0, b.length)).isTrue();
    assertThat(p.hwId()).isEqualTo(5);
    assertThat(p.sequence()).isEqualTo(77);
    long[] v = new long[6];
    assertThat(p.decode(0, v)).isNull();
    assertThat(v).containsExactly(r.values(42));
    assertThat(p.decode(1, v)).isNull();
    assertThat(v).containsExactly(42, 3, 5, 1, 2, 4);
  }

  @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
  void randomBytesDecodeOrFailTyped(@ForAll("noise") byte[] bytes) {
    decodesOrFailsTyped(bytes);
  }

  @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
  void mutatedPacketsDecodeOrFailTyped(
      @ForAll("packets") IntReportGenerator.Packet packet, @ForAll("edits") List<int[]> edits) {
    byte[] b = packet.bytes().clone();
    int len = b.length;
    for (int[] e : edits) {
      switch (e[0]) {
        case 0 -> b[e[1] % b.length] ^= (byte) (1 << (e[2] & 7));
        case 1 -> len = Math.min(len, e[1] % (b.length + 1));
        default -> b[e[1] % b.length] = (byte) e[2];
      }
    }
    String outcome = decodesOrFailsTyped(java.util.Arrays.copyOf(b, len));
    Statistics.label("outcome").collect(outcome);
  }

  /** Never throws; a failure is typed and of the right scope; framing covers the packet. */
  static String decodesOrFailsTyped(byte[] bytes) {
    IntReportPacket p = new IntReportPacket();
    if (!p.parse(bytes, 0, bytes.length)) {
      assertThat(p.malformation().scope()).isEqualTo(IntMalformation.Scope.PACKET);
      assertThat(p.reports()).isZero();
      return "packet dropped";
    }
    assertThat(p.reportOffset(0)).isEqualTo(IntReportPacket.GROUP_HEADER_LENGTH);
    assertThat(p.reportOffset(p.reports())).isEqualTo(bytes.length);
    long[] v = new long[6];
    String outcome = "decoded";
    for (int i = 0; i < p.reports(); i++) {
      assertThat(p.reportOffset(i + 1)).isGreaterThan(p.reportOffset(i));
      if (p.reportType(i) == IntReportPacket.REP_TYPE_INT) {
        IntMalformation m = p.decode(i, v);
        if (m != null) {
          assertThat(m.scope()).isEqualTo(IntMalformation.Scope.REPORT);
          outcome = "report dropped";
        } else {
          assertThat(v[0]).isEqualTo(p.nodeId());
          assertThat(v[2]).isBetween(0L, 0xff_ffffL);
          assertThat(v[3]).isBetween(0L, 0xffffL);
          assertThat(v[5]).isBetween(0L, 0xffL);
        }
      }
    }
    return outcome;
  }

  @Test
  void eachFaultHasItsReason() {
    byte[] ok = IntReportEncoder.encode(0, 1, 2, List.of(IntReport.hop(1, 2, 300, 0, 9)));
    IntReportPacket p = new IntReportPacket();
    assertThat(p.parse(ok, 0, 7)).isFalse();
    assertThat(p.malformation()).isEqualTo(IntMalformation.TRUNCATED_GROUP_HEADER);
    byte[] v1 = ok.clone();
    v1[0] = 0x10;
    assertThat(p.parse(v1, 0, v1.length)).isFalse();
    assertThat(p.malformation()).isEqualTo(IntMalformation.BAD_VERSION);
    assertThat(p.parse(ok, 0, 10)).isFalse();
    assertThat(p.malformation()).isEqualTo(IntMalformation.TRUNCATED_REPORT_HEADER);
    assertThat(p.parse(ok, 0, ok.length - 4)).isFalse();
    assertThat(p.malformation()).isEqualTo(IntMalformation.REPORT_BEYOND_PACKET);
    assertThat(p.parse(ok, 0, 8)).isTrue(); // a group header alone: no reports
    assertThat(p.reports()).isZero();
    long[] v = new long[6];
    byte[] md = ok.clone();
    md[8 + 2] = 5; // MD Length 5 words in a report of 5 words
    assertThat(p.parse(md, 0, md.length)).isTrue();
    assertThat(p.decode(0, v)).isEqualTo(IntMalformation.MD_BEYOND_REPORT);
    byte[] baseline = ok.clone();
    baseline[8 + 2] = 2; // three baseline words announced, two held
    assertThat(p.parse(baseline, 0, baseline.length)).isTrue();
    assertThat(p.decode(0, v)).isEqualTo(IntMalformation.BASELINE_BEYOND_MD);
    byte[] shortReport = {0x20, 0, 0, 0, 0, 0, 0, 2, 0x10, 1, 0, 0, 0, 0, 0, 0};
    assertThat(p.parse(shortReport, 0, shortReport.length)).isTrue();
    assertThat(p.decode(0, v)).isEqualTo(IntMalformation.SHORT_INT_REPORT);
    assertThat(p.parse(ok, 0, ok.length)).isTrue();
    assertThat(p.decode(0, v)).isNull();
    assertThat(v).containsExactly(2, 300, 9, 1, 2, 0);
  }

  @Provide
  Arbitrary<IntReportGenerator.Packet> packets() {
    return Arbitraries.longs()
        .flatMap(
            seed -> {
              IntReportGenerator g = new IntReportGenerator(seed, 100);
              return Arbitraries.integers().between(0, 5).map(skip -> skipThen(g, skip));
            });
  }

  private static IntReportGenerator.Packet skipThen(IntReportGenerator g, int skip) {
    for (int i = 0; i < skip; i++) {
      g.next();
    }
    return g.next();
  }

  @Provide
  Arbitrary<Integer> bits() {
    return Arbitraries.integers().between(0, 0xffff);
  }

  @Provide
  Arbitrary<Long> latencies() {
    return Arbitraries.longs().between(0, 0xffff_ffffL);
  }

  @Provide
  Arbitrary<byte[]> noise() {
    Arbitrary<byte[]> raw = Arbitraries.bytes().array(byte[].class).ofMaxSize(200);
    return Arbitraries.oneOf(
        raw,
        raw.map(
            b -> {
              // a valid version nibble, so that noise reaches the reports
              byte[] out =
                  java.util.Arrays.copyOf(new byte[] {0x20, 0, 0, 0, 0, 0, 0, 2}, 8 + b.length);
              System.arraycopy(b, 0, out, 8, b.length);
              return out;
            }));
  }

  @Provide
  Arbitrary<List<int[]>> edits() {
    return Combinators.combine(
            Arbitraries.integers().between(0, 2),
            Arbitraries.integers().between(0, 1 << 16),
            Arbitraries.integers().between(0, 255))
        .as((k, w, v) -> new int[] {k, w, v})
        .list()
        .ofMinSize(1)
        .ofMaxSize(3)
        .map(ArrayList::new);
  }
}
