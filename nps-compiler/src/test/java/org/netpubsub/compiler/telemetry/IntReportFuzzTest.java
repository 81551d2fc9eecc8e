package org.netpubsub.compiler.telemetry;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Example;
import org.netpubsub.content.fuzz.Fuzz;

/**
 * Fuzz target: the INT report parser ({@link IntReportPacket}): framing and every report's decoding
 * fail typed, with the right scope, and the framing covers the packet (the checks of {@link
 * IntReportPacketProperties#decodesOrFailsTyped}).
 */
public class IntReportFuzzTest {
  public static void fuzzerTestOneInput(byte[] data) {
    accept(data);
  }

  static boolean accept(byte[] data) {
    return !IntReportPacketProperties.decodesOrFailsTyped(data).equals("packet dropped");
  }

  static List<byte[]> seeds() {
    List<byte[]> out = new ArrayList<>();
    Random random = new Random(27);
    for (int i = 0; i < 20; i++) {
      List<IntReport> reports = new ArrayList<>();
      for (int k = random.nextInt(4); k >= 0; k--) {
        reports.add(
            IntReport.hop(
                random.nextInt(64),
                random.nextInt(64),
                random.nextInt(1 << 20),
                random.nextInt(256),
                random.nextInt(1 << 24)));
      }
      out.add(IntReportEncoder.encode(i, random.nextInt(1000), random.nextInt(1 << 20), reports));
    }
    return out;
  }

  @Example
  void everyPacketDecodesOrIsReportedMalformed() {
    Fuzz.run("int", IntReportFuzzTest::accept, seeds(), 3000);
  }
}
