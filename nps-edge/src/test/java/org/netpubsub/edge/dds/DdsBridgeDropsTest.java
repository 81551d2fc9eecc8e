package org.netpubsub.edge.dds;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The child's D frames (nps_dds_bridge.py) as counter names, with the key a sample frame named. */
class DdsBridgeDropsTest {
  private final List<String> heard = new ArrayList<>();
  private final DdsBridge.Listener listener =
      new DdsBridge.Listener() {
        @Override
        public void endpoint(DdsFrames.Endpoint e) {}

        @Override
        public void sample(DdsFrames.Sample s) {}

        @Override
        public void dropped(String reason) {
          heard.add(reason);
        }

        @Override
        public void droppedSample(String reason, String key) {
          heard.add(reason + " " + key);
        }
      };

  @Test
  void samplesFromOtherSitesNameTheirKeyAndOtherDropsOnlyTheirReason() {
    String key = "dds/readings/demo::Reading/" + "0".repeat(28);
    for (String text :
        List.of(
            "malformed: " + key,
            "unknown_type: " + key,
            "unknown_type: readings: no type information", // a local endpoint's topic
            "unknown_type",
            "malformed",
            "endpoint: KeyError('x')",
            "Not A Reason: " + key)) {
      DdsBridge.dropped(listener, text);
    }
    assertThat(heard)
        .containsExactly(
            "dds_malformed " + key,
            "dds_unknown_type " + key,
            "dds_unknown_type",
            "dds_unknown_type",
            "dds_malformed",
            "dds_endpoint",
            "dds_other " + key);
  }
}
