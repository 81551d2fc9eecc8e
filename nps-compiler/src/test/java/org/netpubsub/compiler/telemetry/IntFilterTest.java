package org.netpubsub.compiler.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.compiler.Compilation;
import org.netpubsub.compiler.CompileOptions;
import org.netpubsub.compiler.RuleCompiler;
import org.netpubsub.compiler.rules.RuleParser;
import org.netpubsub.compiler.spec.BuiltinSpecs;
import org.netpubsub.compiler.spec.MessageSpec;
import org.netpubsub.compiler.target.software.SoftwarePipeline;

/** Camus §7.2: the compiled INT filter selects exactly the reports it names. */
class IntFilterTest {
  static final MessageSpec INT = BuiltinSpecs.intReports();

  @Test
  void switchTwoWithHighLatencySelectsExactlyTheMatchingReports() {
    Compilation c =
        RuleCompiler.compile(
            INT,
            RuleParser.parse(INT.schema(), "int.switch_id == 2 && int.hop_latency > 100 : fwd(1)"),
            CompileOptions.EXACT);
    SoftwarePipeline sw = SoftwarePipeline.of(c.pipeline());
    IntReportGenerator g = new IntReportGenerator(2026, 100);
    IntReportPacket p = new IntReportPacket();
    long[] v = new long[IntReportPacket.FIELDS];
    List<String> selected = new ArrayList<>();
    List<String> wanted = new ArrayList<>();
    int reports = 0;
    for (int k = 0; k < 50_000; k++) {
      IntReportGenerator.Packet packet = g.next();
      assertThat(p.parse(packet.bytes(), 0, packet.bytes().length)).isTrue();
      for (int i = 0; i < p.reports(); i++) {
        IntReport truth = packet.reports().get(i);
        if (truth.repType() != IntReportPacket.REP_TYPE_INT) {
          continue;
        }
        reports++;
        assertThat(p.decode(i, v)).isNull();
        String id = k + "/" + i;
        if (sw.actions(v).length > 0) {
          assertThat(sw.actions(v)).containsExactly(1);
          selected.add(id);
        }
        if (packet.nodeId() == 2 && truth.hopLatency() > 100) {
          wanted.add(id);
        }
      }
    }
    assertThat(reports).isGreaterThan(90_000);
    assertThat(wanted).hasSizeGreaterThan(50); // the filter is selective, but not empty
    assertThat(selected).isEqualTo(wanted);
  }
}
