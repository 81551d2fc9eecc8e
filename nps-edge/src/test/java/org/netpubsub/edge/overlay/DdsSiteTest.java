package org.netpubsub.edge.overlay;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.netpubsub.edge.dds.DdsDomain;
import org.netpubsub.edge.dds.DdsFrames;
import org.netpubsub.edge.dds.DdsStamp;
import org.netpubsub.edge.dds.MqttOpaque;

/**
 * What a DDS site tells its edge about endpoints and samples (no domain joined): run-time
 * deadlines, endpoints of the opaque type on the MQTT topic of their name (readers subscribe,
 * writers publish bare payloads, malformed ones counted and dropped), bad names counted and
 * dropped.
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
            public void onMessage(String topic, LocalSite.Message message) {
              heard.add(
                  "message "
                      + topic
                      + " "
                      + HexFormat.of().formatHex(message.payload())
                      + " qos "
                      + message.qos());
            }

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

  @Test
  void aWriterOfTheOpaqueTypePublishesItsPayloadsOnTheMqttTopic() {
    String key = "dds/plant/temp/netpubsub::MqttMessage/" + HASH;
    site.endpoint(new DdsFrames.Endpoint("pub", true, key, true, "transient_local", 300L, 5));
    assertThat(site.durableDepth("plant/temp")).isEqualTo(5);
    site.sample(new DdsFrames.Sample(key, true, MqttOpaque.cdr(new byte[] {'h', 'i'})));
    site.sample(new DdsFrames.Sample(key, false, MqttOpaque.cdr(new byte[0])));
    // as the child sends them: with the source timestamp, which MQTT does not get
    site.sample(
        new DdsFrames.Sample(
            key, true, DdsStamp.stamp(42L, MqttOpaque.cdr(new byte[] {'o', 'k'}))));
    site.sample(new DdsFrames.Sample(key, true, new byte[] {0, 1, 0, 0, 9, 0, 0, 0, 'x'}));
    site.endpoint(new DdsFrames.Endpoint("pub", false, key, false, "volatile", null, 1));
    assertThat(site.durableDepth("plant/temp")).isZero();
    assertThat(heard)
        .containsExactly(
            "pub " + key + " true",
            "pub plant/temp true",
            "deadline plant/temp WRITERS 300", // the MQTT topic's, not the key's: it travels there
            "message plant/temp 6869 qos 1",
            "message plant/temp  qos 0",
            "message plant/temp 6f6b qos 1",
            "pub " + key + " false",
            "pub plant/temp false",
            "deadline plant/temp WRITERS null");
    assertThat(counters.get("dds_to_mqtt")).isEqualTo(3);
    assertThat(counters.get("dropped.dds_opaque_malformed")).isEqualTo(1);
  }

  @Test
  void readersOfTheOpaqueTypeHoldTheMqttTopicToTheirShortestDeadline() {
    String k1 = "dds/plant/temp/netpubsub::MqttMessage/" + HASH;
    String k2 = "dds/plant/temp/netpubsub::MqttMessage/" + "f".repeat(28);
    site.endpoint(reader(k1, true, 400L));
    site.endpoint(reader(k2, true, 200L));
    site.endpoint(reader(k2, false, null));
    site.endpoint(reader(k1, true, null)); // its reader with the deadline went
    assertThat(heard.stream().filter(h -> h.startsWith("deadline")))
        .containsExactly(
            "deadline plant/temp READERS 400",
            "deadline plant/temp READERS 200",
            "deadline plant/temp READERS 400",
            "deadline plant/temp READERS null");
  }

  @Test
  void samplesOfOtherTypesAndOfNamesMqttCannotTakeTravelOnTheirKeyAsCdr() {
    String reading = "dds/r/demo::Reading/" + HASH;
    String bad = "dds/dds/x/netpubsub::MqttMessage/" + HASH;
    byte[] cdr = MqttOpaque.cdr(new byte[] {7});
    site.sample(new DdsFrames.Sample(reading, true, cdr));
    site.sample(new DdsFrames.Sample(bad, true, cdr));
    assertThat(heard)
        .containsExactly(
            "message " + reading + " 000100000100000007 qos 1",
            "message " + bad + " 000100000100000007 qos 1");
    assertThat(counters.get("dds_to_mqtt")).isZero();
  }

  @Test
  void samplesTheChildDroppedAreCountedAndLoggedOncePerTopicAndReason() {
    List<String> lines = new ArrayList<>();
    Handler h =
        new Handler() {
          @Override
          public void publish(LogRecord r) {
            lines.add(r.getMessage());
          }

          @Override
          public void flush() {}

          @Override
          public void close() {}
        };
    Logger log = Logger.getLogger(DdsSite.class.getName());
    log.addHandler(h);
    try {
      String a = "dds/readings/demo::Reading/" + HASH;
      String b = "dds/other/demo::Reading/" + HASH;
      site.droppedSample("dds_malformed", a);
      site.droppedSample("dds_malformed", a); // within the minute: counted, not logged
      site.droppedSample("dds_unknown_type", a);
      site.droppedSample("dds_malformed", b);
      site.dropped("dds_unknown_type"); // no key: counted only
    } finally {
      log.removeHandler(h);
    }
    assertThat(counters.get("dropped.dds_malformed")).isEqualTo(3);
    assertThat(counters.get("dropped.dds_unknown_type")).isEqualTo(2);
    assertThat(lines)
        .containsExactly(
            "DDS samples from other sites on topic 'readings' dropped (dds_malformed): 1, e.g. key"
                + " dds/readings/demo::Reading/"
                + HASH,
            "DDS samples from other sites on topic 'readings' dropped (dds_unknown_type): 1, e.g."
                + " key dds/readings/demo::Reading/"
                + HASH,
            "DDS samples from other sites on topic 'other' dropped (dds_malformed): 1, e.g. key"
                + " dds/other/demo::Reading/"
                + HASH);
  }
}
