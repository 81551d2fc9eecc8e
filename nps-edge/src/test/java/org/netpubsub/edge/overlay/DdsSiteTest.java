package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.dds.DdsDomain;
import org.netpubsub.edge.dds.DdsFrames;

/**
 * What a DDS site tells its edge about endpoints (no domain joined): run-time deadlines, and the
 * MQTT subscriptions of readers of the opaque type, bad names counted and dropped.
 */
class DdsSiteTest {
  private static final String HASH = "0123456789abcdef0123456789ab";

  private final List<String> heard = new ArrayList<>();
  private final Counters counters = new Counters();
  private final DdsSite site =
      new DdsSite(
          new DdsDomain(0, null),
          "t",
          new LocalSite.Listener() {
            @Override
            public void onMessage(String topic, LocalSite.Message message) {}

            @Override
            public void onSubscriber(String topic, boolean present) {
              heard.add("sub " + topic + " " + present);
            }

            @Override
            public void onPublisher(String topic, boolean present) {
              heard.add("pub " + topic + " " + present);
            }

            @Override
            public void onDeadline(String topic, DeadlineTable.Side side, Long millis) {
              heard.add("deadline " + topic + " " + side + " " + millis);
            }
          },
          counters);

  private static DdsFrames.Endpoint reader(String key, boolean present, Long deadline) {
    return new DdsFrames.Endpoint("sub", present, key, true, "volatile", deadline, 1);
  }

  @Test
  void deadlinesOfReadersAndWritersReachTheEdgeAndGoWithThem() {
    String key = "dds/r/demo::Reading/" + HASH;
    site.endpoint(reader(key, true, 400L));
    site.endpoint(reader(key, true, 200L)); // a shorter one joined
    site.endpoint(new DdsFrames.Endpoint("pub", true, key, true, "volatile", 100L, 1));
    site.endpoint(reader(key, false, null));
    assertThat(heard)
        .containsExactly(
            "sub " + key + " true",
            "deadline " + key + " READERS 400",
            "sub " + key + " true",
            "deadline " + key + " READERS 200",
            "pub " + key + " true",
            "deadline " + key + " WRITERS 100",
            "sub " + key + " false",
            "deadline " + key + " READERS null");
  }

  @Test
  void aReaderOfTheOpaqueTypeSubscribesToTheMqttTopicOfItsName() {
    String k1 = "dds/plant/temp/netpubsub::MqttMessage/" + HASH;
    String k2 = "dds/plant/temp/netpubsub::MqttMessage/" + "f".repeat(28); // another definition
    site.endpoint(reader(k1, true, null));
    site.endpoint(reader(k2, true, null));
    site.endpoint(reader(k1, false, null));
    site.endpoint(reader(k2, false, null));
    assertThat(heard.stream().filter(h -> h.startsWith("sub plant")))
        .containsExactly("sub plant/temp true", "sub plant/temp false"); // while one is there
  }

  @Test
  void aNameMqttCannotTakeIsCountedAndDroppedOnce() {
    String bad = "dds/dds/x/netpubsub::MqttMessage/" + HASH; // DDS topic dds/x
    site.endpoint(reader(bad, true, null));
    site.endpoint(reader(bad, false, null));
    assertThat(heard)
        .containsExactly(
            "sub " + bad + " true",
            "deadline " + bad + " READERS null",
            "sub " + bad + " false",
            "deadline " + bad + " READERS null");
    assertThat(counters.get("dropped.dds_opaque_bad_name")).isEqualTo(1);
  }
}
